import { mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PersonalDataKeys } from '@qrshirt/core';

/** One line of the journal: whose key was destroyed, and when. Subjects name nobody in clear. */
export interface ErasureRecord {
  subject: string;
  at: string;
}

/**
 * Every erasure, recorded outside the databases a backup copies: a backup taken before it still
 * holds the person's key, and `npm run restore` destroys it again from here. The line is on disk
 * (fsynced) before the key goes, so no erasure the caller was told of is missing from it.
 */
export function journalErasures<Keys extends PersonalDataKeys>(
  keys: Keys,
  file: string,
  clock: () => Date = () => new Date(),
): Keys {
  const journaled = Object.create(keys) as Keys;
  journaled.erasePersonalDataKey = async (subject) => {
    await appendErasure(file, { subject, at: clock().toISOString() });
    return keys.erasePersonalDataKey(subject);
  };
  return journaled;
}

async function appendErasure(file: string, record: ErasureRecord): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const handle = await open(file, 'a', 0o600);
  try {
    await handle.appendFile(`${JSON.stringify(record)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * The subjects a journal names, each once; none when the file does not exist. A line cut short by
 * a crash while it was written (the last one) is skipped: its erasure was not carried out either.
 */
export async function readErasureJournal(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const subjects = new Set<string>();
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (!line.trim()) return;
    let subject: unknown;
    try {
      ({ subject } = JSON.parse(line) as Partial<ErasureRecord>);
    } catch {
      // Only the last line can be cut short; anything else unreadable would lose an erasure.
      if (index === lines.length - 1) return;
    }
    if (typeof subject !== 'string' || !subject) throw new Error(`${file}: line ${index + 1} is not an erasure record`);
    subjects.add(subject);
  });
  return [...subjects];
}
