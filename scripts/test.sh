#!/usr/bin/env bash
# `npm test`: the type check, the formatting check and lint, then every test suite. Suites that
# need a server they cannot reach skip with the reason, unless REQUIRE_INFRA names that server
# (CI: redis,kafka,chromium,schemathesis,nginx,mount).
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsc -p tsconfig.json --noEmit
npx tsc -p web/tsconfig.json --noEmit
npm run -s format:check
npm run -s lint
bash scripts/vitest-report.sh "$@"
