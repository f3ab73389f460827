#!/usr/bin/env bash
# `npm test`: the type checks, the formatting check and lint, then every test suite. Suites that
# need a server they cannot reach skip with the reason, unless REQUIRE_INFRA names that server
# (CI: redis,kafka,chromium,schemathesis,nginx,mount).
#
# The checks before the tests run in two lanes, one per core: each check uses one (2 minutes one
# after another from a fresh clone, 1 beside each other), and the lanes take about as long as each
# other when the builds are fresh (CI builds them first: .ci/run). A lane's output is printed once
# it ends, so the two do not interleave; the tests start only when both passed.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
lane() {
  local name=$1
  shift
  local step
  for step in "$@"; do
    echo "> $step"
    bash -c "$step" || return 1
  done >"$work/$name.log" 2>&1
}
# The web and server builds are what the tests serve; scripts/vitest-report.sh then finds them fresh.
lane server 'npx tsc -p tsconfig.json --noEmit' 'npm run -s lint:server' 'npm run -s lint:unused' \
  'node scripts/build-if-stale.mjs' &
server=$!
lane web 'npx tsc -p web/tsconfig.json --noEmit' 'npm run -s format:check' 'npm run -s lint:web' &
web=$!
status=0
wait "$server" || status=1
wait "$web" || status=1
cat "$work/server.log" "$work/web.log"
if [ "$status" -ne 0 ]; then
  echo "failed: a check before the tests (its output is above)"
  exit 1
fi
bash scripts/vitest-report.sh "$@"
