#!/usr/bin/env bash
# CI's npm dependencies for both Node lines: `npm ci`, then better-sqlite3 built for the machine's
# Node (in place) and for Node 24 (in a copy of the package, in the folder given) at the same time,
# one per core: each build is a minute of one core compiling SQLite, and the installs beside this
# one mostly wait on the network. Prints the folder holding Node 24's `node` on its last line.
#
# Dependencies' install scripts run only where a test needs them: sqlite3 (the benchmark's Emmett
# peer) and testcontainers' ssh2 addons are loaded by no test, and sqlite3's build took a core for
# two minutes; the root's postinstall applies patches/.
set -euo pipefail
cd "$(dirname "$0")/../.."
node24_build=$1
node24_out=$(mktemp)
trap 'rm -f "$node24_out"' EXIT
bash scripts/infra/install-node24.sh >"$node24_out" &
node24=$!
npm ci --ignore-scripts --no-audit --no-fund
wait "$node24"
node24_bin=$(tail -n 1 "$node24_out")
cp -r node_modules/better-sqlite3 "$node24_build/"
npm rebuild better-sqlite3 esbuild --no-audit --no-fund &
machine=$!
(
  cd "$node24_build/better-sqlite3"
  # node-gyp takes npm_config_nodedir over its --nodedir flag: the headers are given that way.
  PATH="$node24_bin:$PATH" npm_config_nodedir="$(dirname "$node24_bin")" \
    "$OLDPWD/node_modules/.bin/node-gyp" rebuild --release >"$node24_build/build.log" 2>&1
) || {
  cat "$node24_build/build.log" >&2
  echo "better-sqlite3 did not build for Node 24" >&2
  exit 1
}
wait "$machine"
npm run postinstall
echo "$node24_bin"
