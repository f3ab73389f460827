#!/usr/bin/env bash
# `npm test`: the type checks, the formatting check and lint, then every test suite. Suites that
# need a server they cannot reach skip with the reason, unless REQUIRE_INFRA names that server
# (CI: redis,kafka,chromium,schemathesis,nginx,mount).
set -euo pipefail
cd "$(dirname "$0")/.."
# The checks are single-threaded: two lanes of about equal length keep both cores busy. Each
# check's output is printed once it ends; every check runs, and any failure fails the whole.
checks=$(mktemp -d)
trap 'rm -rf "$checks"' EXIT
check() {
  local name=$1
  shift
  if "$@" >"$checks/$name.out" 2>&1; then
    echo "$name: passed"
  else
    echo "$name: failed"
    cat "$checks/$name.out"
    return 1
  fi
}
(
  status=0
  check 'types (services)' npx tsc -p tsconfig.json --noEmit || status=1
  check 'types (web)' npx tsc -p web/tsconfig.json --noEmit || status=1
  check 'lint (web)' npm run -s lint:web || status=1
  exit "$status"
) &
lane=$!
status=0
check 'lint (services)' npm run -s lint:services || status=1
check 'unused code (knip)' npm run -s lint:unused || status=1
check 'format' npm run -s format:check || status=1
wait "$lane" || status=1
if [ "$status" -ne 0 ]; then exit "$status"; fi
bash scripts/vitest-report.sh "$@"
