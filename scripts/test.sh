#!/usr/bin/env bash
# `npm test`: the type check, the formatting check and lint, then every test suite. Suites that
# need a server they cannot reach skip with the reason, unless REQUIRE_INFRA names that server
# (CI: redis,kafka,chromium,schemathesis,nginx).
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsc -p tsconfig.json --noEmit
npx tsc -p web/tsconfig.json --noEmit
npm run -s format:check
npm run -s lint
report=$(mktemp)
trap 'rm -f "$report"' EXIT
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@" || status=$?
# One plain closing line that any CI can read, whatever the runner prints above it.
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
' "$report" || true
exit "$status"
