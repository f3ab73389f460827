import { randomBytes } from 'node:crypto';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteCredentialsStore } from '@qrshirt/sqlite';
import { journalErasures, readErasureJournal } from '@qrshirt/runtime';

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

async function newFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'qrshirt-journal-'));
  folders.push(folder);
  return folder;
}

describe('the erasure journal', () => {
  it('holds each erasure before the key goes, and nothing else the store does', async () => {
    const folder = await newFolder();
    const journal = path.join(folder, 'journal', 'erasures.jsonl');
    const store = createSqliteCredentialsStore({ path: path.join(folder, 'credentials.sqlite') });
    const keys = journalErasures(store, journal, () => new Date('2026-11-26T10:00:00Z'));
    try {
      await keys.personalDataKey('user-kept', randomBytes(32));
      await keys.personalDataKey('user-gone', randomBytes(32));
      expect(await keys.erasePersonalDataKey('user-gone')).toBe(true);
      expect(await keys.erasePersonalDataKey('waitlist-never-keyed')).toBe(true);
      expect([...(await keys.personalDataKeys(['user-kept', 'user-gone'])).keys()]).toEqual(['user-kept']);
      expect(await readFile(journal, 'utf8')).toBe(
        '{"subject":"user-gone","at":"2026-11-26T10:00:00.000Z"}\n' +
          '{"subject":"waitlist-never-keyed","at":"2026-11-26T10:00:00.000Z"}\n',
      );
    } finally {
      await keys.close();
    }
  });

  it('reads each subject once, skips a last line cut short, and refuses a damaged one before it', async () => {
    const folder = await newFolder();
    const journal = path.join(folder, 'erasures.jsonl');
    expect(await readErasureJournal(journal)).toEqual([]);
    const line = (subject: string) => `${JSON.stringify({ subject, at: '2026-11-26T10:00:00.000Z' })}\n`;
    await writeFile(journal, line('user-a') + line('waitlist-b') + line('user-a'));
    await appendFile(journal, '{"subject":"user-c","a');
    expect(await readErasureJournal(journal)).toEqual(['user-a', 'waitlist-b']);
    await appendFile(journal, `\n${line('user-d')}`);
    await expect(readErasureJournal(journal)).rejects.toThrow(/line 4 is not an erasure record/);
  });
});
