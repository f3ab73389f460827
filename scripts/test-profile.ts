// `npm run test:profile [vitest arguments]`: runs the suites (all, or those named) and lists the
// 20 slowest test files, each with its time from its start to its end, and its tests' own time.
// A run of every suite also keeps each file's time in scripts/vitest/file-times.json, the order in
// which the next runs start them (slowest-first.ts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FILE_TIMES } from './vitest/slowest-first';

const args = process.argv.slice(2);
const folder = mkdtempSync(path.join(tmpdir(), 'qrshirt-profile-'));
const report = path.join(folder, 'report.json');
const run = spawnSync('bash', ['scripts/vitest-report.sh', ...args], {
  stdio: 'inherit',
  env: { ...process.env, VITEST_REPORT: report },
});
interface Report {
  startTime: number;
  testResults: {
    name: string;
    startTime: number;
    endTime: number;
    assertionResults: { duration?: number | null }[];
  }[];
}
const { testResults, startTime } = JSON.parse(readFileSync(report, 'utf8')) as Report;
rmSync(folder, { recursive: true, force: true });
// The JSON report names no project: a browser test's report is the e2e one, by its folder.
const project = (file: string) => (file.startsWith('web/e2e/') ? 'e2e' : file.startsWith('web/') ? 'web' : 'node');
const seconds = (ms: number) => (ms / 1000).toFixed(1).padStart(7);
const files = testResults
  .map((file) => ({
    name: path.relative(process.cwd(), file.name),
    wall: file.endTime - file.startTime,
    tests: file.assertionResults.reduce((sum, test) => sum + (test.duration ?? 0), 0),
    from: file.startTime - startTime,
  }))
  .sort((a, b) => b.wall - a.wall);
console.log("\n=== the 20 slowest test files (s: from the run's start, the file's wall time, its tests' time)");
console.log(`${'start'.padStart(7)} ${'wall'.padStart(7)} ${'tests'.padStart(7)}  file`);
for (const file of files.slice(0, 20)) {
  console.log(`${seconds(file.from)} ${seconds(file.wall)} ${seconds(file.tests)}  ${file.name}`);
}
if (args.length === 0 && run.status === 0) {
  const times = Object.fromEntries(
    files.map((file) => [`${project(file.name)}:${file.name}`, Math.round(file.wall / 100) / 10]),
  );
  writeFileSync(FILE_TIMES, `${JSON.stringify(times, null, 2)}\n`);
  console.log(`each file's time kept in ${path.relative(process.cwd(), FILE_TIMES)}`);
}
process.exit(run.status ?? 1);
