import { mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { UserAccountClosed } from '@qrshirt/contracts';
import type { ErasureAct, PersonalDataKeys } from '@qrshirt/core';

/**
 * One line of the journal: whose key was destroyed, when, and the act it was part of (an account
 * closed: who closed it, by ids). Nothing in it names anybody in clear.
 */
export interface ErasureRecord {
  subject: string;
  at: string;
  act?: ErasureAct;
}

const erasureRecord = z.object({
  subject: z.string().min(1),
  act: z.object({ type: z.literal(UserAccountClosed.type), data: UserAccountClosed.schema }).optional(),
});

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
  journaled.erasePersonalDataKey = async (subject, act) => {
    await appendErasure(file, { subject, at: clock().toISOString(), ...(act && { act }) });
    return keys.erasePersonalDataKey(subject, act);
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
 * The subjects a journal names, each once, with the first act recorded for it; none when the file
 * does not exist. A line cut short by a crash while it was written (the last one) is skipped: its
 * erasure was not carried out either.
 */
export async function readErasureJournal(file: string): Promise<Omit<ErasureRecord, 'at'>[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const records = new Map<string, Omit<ErasureRecord, 'at'>>();
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (!line.trim()) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      // Only the last line can be cut short; anything else unreadable would lose an erasure.
      if (index === lines.length - 1) return;
    }
    const record = erasureRecord.safeParse(parsed);
    if (!record.success) throw new Error(`${file}: line ${index + 1} is not an erasure record`);
    const { subject, act } = record.data;
    const known = records.get(subject);
    if (!known) records.set(subject, { subject, ...(act && { act }) });
    else if (!known.act && act) known.act = act;
  });
  return [...records.values()];
}
