// `npm run test:profile [vitest arguments]`: runs the suites (all, or those named) and lists the
// 20 slowest test files, each with its time from its start to its end, and its tests' own time.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const folder = mkdtempSync(path.join(tmpdir(), 'qrshirt-profile-'));
const report = path.join(folder, 'report.json');
const run = spawnSync('bash', ['scripts/vitest-report.sh', ...process.argv.slice(2)], {
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
process.exit(run.status ?? 1);
