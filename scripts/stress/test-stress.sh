#!/usr/bin/env bash
# `npm run test:stress [vitest arguments]`: the tests beside two busy loops per core
# (busy-loops.mjs), as on a CI machine that other work shares, with every test deadline scaled by
# TEST_TIME_SCALE (3 unless set). No arguments: every suite; else what `npx vitest run` takes.
set -euo pipefail
cd "$(dirname "$0")/../.."
node scripts/stress/busy-loops.mjs &
loops=$!
trap 'kill "$loops" 2>/dev/null || true' EXIT
export TEST_TIME_SCALE="${TEST_TIME_SCALE:-3}"
echo "=== test:stress: TEST_TIME_SCALE=$TEST_TIME_SCALE, beside busy loops"
bash scripts/vitest-report.sh "$@"
