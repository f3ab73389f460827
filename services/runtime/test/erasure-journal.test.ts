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
      const closing = {
        type: 'UserAccountClosed',
        data: { userId: 'gone', by: 'admin', adminId: 'op-1', at: '2026-11-26T09:59:59.000Z' },
      } as const;
      expect(await keys.erasePersonalDataKey('user-gone', closing)).toBe(true);
      expect(await keys.erasePersonalDataKey('waitlist-never-keyed')).toBe(true);
      expect([...(await keys.personalDataKeys(['user-kept', 'user-gone'])).keys()]).toEqual(['user-kept']);
      expect(await readFile(journal, 'utf8')).toBe(
        '{"subject":"user-gone","at":"2026-11-26T10:00:00.000Z","act":{"type":"UserAccountClosed",' +
          '"data":{"userId":"gone","by":"admin","adminId":"op-1","at":"2026-11-26T09:59:59.000Z"}}}\n' +
          '{"subject":"waitlist-never-keyed","at":"2026-11-26T10:00:00.000Z"}\n',
      );
      expect(await readErasureJournal(journal)).toEqual([
        { subject: 'user-gone', act: closing },
        { subject: 'waitlist-never-keyed' },
      ]);
    } finally {
      await keys.close();
    }
  });

  it('reads each subject once with its first act, skips a last line cut short, and refuses a damaged one before it', async () => {
    const folder = await newFolder();
    const journal = path.join(folder, 'erasures.jsonl');
    expect(await readErasureJournal(journal)).toEqual([]);
    const closedBy = (by: 'self' | 'admin') => ({
      type: 'UserAccountClosed',
      data: { userId: 'a', by, ...(by === 'admin' && { adminId: 'op-1' }), at: '2026-11-26T09:00:00.000Z' },
    });
    const line = (subject: string, act?: object) =>
      `${JSON.stringify({ subject, at: '2026-11-26T10:00:00.000Z', ...(act && { act }) })}\n`;
    await writeFile(
      journal,
      line('user-a') + line('waitlist-b') + line('user-a', closedBy('self')) + line('user-a', closedBy('admin')),
    );
    await appendFile(journal, '{"subject":"user-c","a');
    expect(await readErasureJournal(journal)).toEqual([
      { subject: 'user-a', act: closedBy('self') },
      { subject: 'waitlist-b' },
    ]);
    await appendFile(journal, `\n${line('user-d')}`);
    await expect(readErasureJournal(journal)).rejects.toThrow(/line 5 is not an erasure record/);
    await writeFile(
      journal,
      line('user-e', { type: 'UserAccountClosed', data: { userId: 'e', by: 'nobody' } }) + line('user-f'),
    );
    await expect(readErasureJournal(journal)).rejects.toThrow(/line 1 is not an erasure record/);
  });
});
