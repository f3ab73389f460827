import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Where `npm run test:profile` keeps each file's last wall time, in seconds, by project and path. */
export const FILE_TIMES = path.join(import.meta.dirname, 'file-times.json');

function knownTimes(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(FILE_TIMES, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/**
 * Starts the files that take longest first, so that a minutes-long one (schemathesis, the
 * partition tests) does not begin last and hold the run open after the rest finished. vitest
 * would order them by its own cache of durations, but a fresh clone (CI) has none and falls back
 * to file size. Files without a known time keep vitest's order, after the known ones.
 */
export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const times = knownTimes();
    const root = this.ctx.config.root;
    const time = (file: TestSpecification) => times[`${file.project.name}:${path.relative(root, file.moduleId)}`] ?? 0;
    // Array.prototype.sort is stable: ties keep vitest's order.
    return (await super.sort(files)).sort((a, b) => time(b) - time(a));
  }
}
