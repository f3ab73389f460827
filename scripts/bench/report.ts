import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import path from 'node:path';

/** One benchmark of `npm run bench`: its figures as a Markdown table, or why it did not run. */
export interface BenchSection {
  name: string;
  /** The formatted figures; each benchmark reports its ratios to its own baseline. */
  figures?: string;
  skipped?: string;
  failed?: string;
  seconds: number;
}

/** The machine the figures come from: absolute figures mean little without it. */
export function describeMachine(): string[] {
  const processors = cpus();
  return [
    `- CPU: ${processors[0]?.model.trim() ?? 'unknown'}, ${processors.length} cores`,
    `- memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `- system: ${type()} ${release()}, Node ${process.version}`,
    // Other work on the machine moves absolute figures: this says how busy it was.
    `- load average at the start (1, 5, 15 min): ${loadavg()
      .map((load) => load.toFixed(2))
      .join(', ')}`,
  ];
}

function revision(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' }).trim() !== '';
    return dirty ? `${commit} with uncommitted changes` : commit;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

/** docs/benchmarks.md: when, on what, and every section's figures, so a rerun can be compared. */
export function writeBenchmarkReport(file: string, sections: readonly BenchSection[], startedAt: Date): void {
  const lines = [
    '# Benchmarks',
    '',
    'Written by `npm run bench`; rerun it to compare. Each table gives its figures and their ratio to a',
    'baseline measured in the same run on the same machine, since absolute figures swing with the',
    'machine and its load; compare ratios across machines, absolute figures only on the same one.',
    '',
    `- date: ${startedAt.toISOString()}`,
    ...describeMachine(),
    `- code: ${revision()}`,
    '',
  ];
  for (const section of sections) {
    lines.push(`## ${section.name}`, '');
    if (section.figures) lines.push(section.figures, '', `(${section.seconds.toFixed(0)} s)`);
    if (section.skipped) lines.push(`Skipped: ${section.skipped}.`);
    if (section.failed) lines.push('Failed:', '', '```', section.failed, '```');
    lines.push('');
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, [lines.join('\n'), ...standaloneSections(file, sections)].join('\n'));
}

/**
 * The sections of the report as it stands that this run did not write: those of the benchmarks
 * that run on their own (`bench:boot`, `bench:web`), kept as they were.
 */
function standaloneSections(file: string, written: readonly BenchSection[]): string[] {
  let report: string;
  try {
    report = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const names = new Set(written.map((section) => section.name));
  return report
    .split(/^(?=## )/m)
    .slice(1)
    .filter((section) => !names.has(section.slice(3, section.indexOf('\n')).trim()))
    .map((section) => `${section.trimEnd()}\n`);
}

/**
 * Writes the section of a benchmark that runs on its own (`bench:boot`, `bench:web`): its heading,
 * what it measures, when and on what machine, and its figures, in place of its previous section.
 */
export function writeStandaloneSection(
  file: string,
  { heading, about, figures }: { heading: string; about: readonly string[]; figures: string },
): void {
  const section = [
    heading,
    '',
    ...about,
    '',
    `- date: ${new Date().toISOString()}`,
    ...describeMachine(),
    '',
    figures,
    '',
  ].join('\n');
  replaceReportSection(file, heading, section);
}

/** Replaces one section (from its heading to the next `## `), or adds it at the end. */
function replaceReportSection(file: string, heading: string, section: string): void {
  const report = readFileSync(file, 'utf8');
  const start = report.indexOf(heading);
  if (start === -1) {
    writeFileSync(file, `${report.trimEnd()}\n\n${section}`);
    return;
  }
  const next = report.indexOf('\n## ', start + heading.length);
  const rest = next === -1 ? '' : `\n${report.slice(next + 1)}`;
  writeFileSync(file, `${report.slice(0, start)}${section.trimEnd()}\n${rest}`);
}
