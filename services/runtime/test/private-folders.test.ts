import { chmod, mkdtemp, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makePrivate } from '../src/private-folders';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function folderWithFiles(count: number): Promise<{ folder: string; files: string[] }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'private-folders-'));
  folders.push(folder);
  await chmod(folder, 0o755);
  const files = Array.from({ length: count }, (_, index) => path.join(folder, `file-${index}`));
  for (const file of files) await writeFile(file, 'x', { mode: 0o644 });
  return { folder, files };
}

describe('makePrivate', () => {
  it('makes a folder and its files owner-only', async () => {
    const { folder, files } = await folderWithFiles(3);
    expect(await makePrivate(folder)).toEqual([]);
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    for (const file of files) expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('passes over files deleted while it walks, as SQLite deletes its journal', async () => {
    const { folder, files } = await folderWithFiles(2000);
    const walking = makePrivate(folder);
    // Deleted one by one while the walk lstats them one by one: some after their listing.
    const deleting = (async () => {
      for (const file of files.toReversed()) await unlink(file);
    })();
    await expect(walking).resolves.toEqual([]);
    await deleting;
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
  });
});
