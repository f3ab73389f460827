#!/usr/bin/env bash
# Runs vitest with the given arguments, then closes with plain lines that any CI can read, whatever
# the runner prints above them: what failed, by file and name with the first lines of its error,
# and the counts. A run that fails with no failed test (an unhandled error, a suite that could not
# start) says so, since its counts alone would read as a pass. VITEST_REPORT: where to keep vitest's
# JSON report (per file: durations, for `npm run test:profile`); a temporary file otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
report=${VITEST_REPORT:-$(mktemp)}
if [ -z "${VITEST_REPORT:-}" ]; then trap 'rm -f "$report"' EXIT; fi
# Built once before any test: several files serve web/dist or start `npm start`, and each would
# otherwise build it when stale, side by side, into the same folder.
node scripts/build-if-stale.mjs
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@" || status=$?
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const status = Number(process.argv[2]);
  for (const file of r.testResults) {
    const name = require("path").relative(process.cwd(), file.name);
    const failed = file.assertionResults.filter((test) => test.status === "failed");
    for (const test of failed) {
      console.log(`failed: ${name} > ${test.fullName}`);
      const why = (test.failureMessages ?? []).join("\n").replace(/\u001b\[[0-9;]*m/g, "").split("\n");
      for (const line of why.filter((line) => line.trim()).slice(0, 4)) console.log(`  why: ${line.slice(0, 300)}`);
    }
    if (file.status === "failed" && failed.length === 0) console.log(`failed: ${name} (the file itself: ${String(file.message).split("\n")[0]})`);
  }
  if (status !== 0 && r.numFailedTests === 0 && r.numFailedTestSuites === 0)
    console.log(`vitest exited ${status} with every test passed: an unhandled error, printed above`);
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
' "$report" "$status" || true
exit "$status"
