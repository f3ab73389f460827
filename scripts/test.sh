#!/usr/bin/env bash
# `npm test`: the type check, then every test suite. Suites that need a server they cannot
# reach skip with the reason, unless REQUIRE_INFRA names that server (CI: redis).
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsc -p tsconfig.json --noEmit
npx vitest run "$@"
