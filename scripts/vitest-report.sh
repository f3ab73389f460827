#!/usr/bin/env bash
# Runs vitest with the given arguments, then closes with plain lines that any CI can read, whatever
# the runner prints above them: what failed, by file and name with the first lines of its error,
# and the counts. A run that fails with no failed test (an unhandled error, a suite that could not
# start) says so, since its counts alone would read as a pass. VITEST_REPORT: where to keep vitest's
# JSON report (per file: durations, for `npm run test:profile`); a temporary file otherwise.
#
# Unless the arguments choose projects, the browser tests (the e2e project, one file at a time on
# one running product) run in a vitest process of their own beside the node and web projects: in
# the same process vitest starts a project of one worker only after every other file, a tail of
# minutes with a core left idle. The hosts project (tests that change this machine's network
# interfaces, which fails a browser's requests: vitest.config.ts) runs first in that lane. Each lane
# picks test ports from slices of its own (TEST_PORT_SLICE_OFFSET,
# scripts/test-support/src/free-ports.ts); the second lane's output is printed once it ends, so
# that the two lanes' lines do not interleave.
set -euo pipefail
cd "$(dirname "$0")/.."
report=${VITEST_REPORT:-$(mktemp)}
work=$(mktemp -d)
trap 'rm -rf "$work"; if [ -z "${VITEST_REPORT:-}" ]; then rm -f "$report"; fi' EXIT
# Built once before any test: several files serve web/dist or start `npm start`, and each would
# otherwise build it when stale, side by side, into the same folder.
node scripts/build-if-stale.mjs
vitest() {
  local json=$1
  shift
  VITEST_HOOK_ERRORS="$json.hooks" npx vitest run --reporter=default --reporter=json \
    --reporter=./scripts/vitest/hook-errors.ts --outputFile.json="$json" "$@"
}
status=0
reports=()
if [[ " $* " == *" --project"* ]]; then
  vitest "$work/all.json" "$@" || status=$?
  reports=("$work/all.json")
else
  (
    export TEST_PORT_SLICE_OFFSET=12
    code=0
    vitest "$work/hosts.json" --project hosts --passWithNoTests "$@" || code=$?
    vitest "$work/e2e.json" --project e2e --passWithNoTests "$@" || code=$?
    exit "$code"
  ) >"$work/lane.out" 2>&1 &
  lane=$!
  vitest "$work/rest.json" --project node --project web --passWithNoTests "$@" || status=$?
  lane_status=0
  wait "$lane" || lane_status=$?
  echo "=== the host-network tests, then the browser tests (vitest --project hosts, then e2e, beside the rest)"
  cat "$work/lane.out"
  if [ "$status" -eq 0 ]; then status=$lane_status; fi
  reports=("$work/rest.json" "$work/hosts.json" "$work/e2e.json")
fi
node -e '
  const fs = require("fs");
  const [out, status, ...files] = process.argv.slice(1);
  const runs = files.filter((file) => fs.existsSync(file)).map((file) => JSON.parse(fs.readFileSync(file, "utf8")));
  const hookErrors = Object.assign(
    {},
    ...files.filter((file) => fs.existsSync(`${file}.hooks`)).map((file) => JSON.parse(fs.readFileSync(`${file}.hooks`, "utf8"))),
  );
  const firstLines = (text) => text.replace(/\u001b\[[0-9;]*m/g, "").split("\n").filter((line) => line.trim()).slice(0, 4);
  const sum = (key) => runs.reduce((total, run) => total + run[key], 0);
  const r = {
    startTime: Math.min(...runs.map((run) => run.startTime)),
    numPassedTests: sum("numPassedTests"),
    numFailedTests: sum("numFailedTests"),
    numFailedTestSuites: sum("numFailedTestSuites"),
    numPendingTests: sum("numPendingTests"),
    numTodoTests: sum("numTodoTests"),
    testResults: runs.flatMap((run) => run.testResults),
  };
  fs.writeFileSync(out, JSON.stringify(r));
  for (const file of r.testResults) {
    const name = require("path").relative(process.cwd(), file.name);
    const failed = file.assertionResults.filter((test) => test.status === "failed");
    for (const test of failed) {
      console.log(`failed: ${name} > ${test.fullName}`);
      for (const line of firstLines((test.failureMessages ?? []).join("\n"))) console.log(`  why: ${line.slice(0, 300)}`);
    }
    if (file.status === "failed" && failed.length === 0) {
      console.log(`failed: ${name} (the file itself, or a beforeAll or afterAll in it)`);
      for (const error of hookErrors[file.name] ?? [file.message ?? ""]) {
        for (const line of firstLines(String(error))) console.log(`  why: ${line.slice(0, 300)}`);
      }
    }
  }
  if (runs.length === files.length && r.testResults.length === 0) {
    console.log("no test file matched: nothing ran");
    process.exitCode = 1;
  }
  if (runs.length < files.length) console.log(`vitest exited ${status} without a report of every run: see its output above`);
  else if (Number(status) !== 0 && r.numFailedTests === 0 && r.numFailedTestSuites === 0)
    console.log(`vitest exited ${status} with every test passed: an unhandled error, printed above`);
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
' "$report" "$status" "${reports[@]}" || if [ "$status" -eq 0 ]; then status=1; fi
exit "$status"
