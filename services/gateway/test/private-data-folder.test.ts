import { chmod, chown, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, latestMail, signUp, startGatewayProcess, uniqueEmail } from '@qrshirt/test-support';
import { startTestServer } from './support/test-server';

/**
 * DATA_DIR holds password hashes, the keys that keep erased people erased, and mail with live
 * reset and claim links: nobody but the user the product runs as may read any of it (design,
 * "Money and the public"). The caller's umask is the usual 022 in every test, so each mode seen
 * is one the process chose.
 */
const folders: string[] = [];
afterEach(async () => {
  process.umask(0o022);
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function newFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'qrshirt-private-'));
  folders.push(folder);
  return folder;
}

/** Every entry under `dir` with its permission bits in octal, e.g. `{ 'mail/x.eml': '600' }`; `.` is `dir`. */
async function modesUnder(dir: string): Promise<Record<string, string>> {
  const modes: Record<string, string> = { '.': ((await stat(dir)).mode & 0o777).toString(8) };
  for (const entry of await readdir(dir, { recursive: true })) {
    modes[entry] = ((await stat(path.join(dir, entry))).mode & 0o777).toString(8);
  }
  return modes;
}

/** What owner-only means for each entry: 700 for folders, 600 for files. */
async function ownerOnly(dir: string, modes: Record<string, string>): Promise<Record<string, string>> {
  const expected: Record<string, string> = {};
  for (const entry of Object.keys(modes)) {
    expected[entry] = (await stat(path.join(dir, entry))).isDirectory() ? '700' : '600';
  }
  return expected;
}

function capturedLog() {
  const lines: { level: number; msg: string; readableByOthers?: string[] }[] = [];
  const log = pino(
    { level: 'warn' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    }),
  );
  return { log, lines };
}

describe('DATA_DIR is private to the user the product runs as', () => {
  it('creates every entry owner-only: through a start, a sign-up, a mail written as .eml and a restart', async () => {
    const parent = await newFolder();
    const dataDir = path.join(parent, 'data');
    process.umask(0o022);
    const server = await startTestServer({ dataDir });
    const email = uniqueEmail('private');
    try {
      await signUp(server.api, { email });
      await latestMail(dataDir, email);
      const running = await modesUnder(dataDir);
      // The databases (with their write-ahead logs while open) and the mail are all there.
      expect(Object.keys(running)).toEqual(
        expect.arrayContaining([
          'events.sqlite',
          'events.sqlite-wal',
          'credentials.sqlite',
          'outbox.sqlite',
          'read-models.sqlite',
          'mail',
          expect.stringMatching(/^mail\/.+\.eml$/),
        ]),
      );
      expect(running).toEqual(await ownerOnly(dataDir, running));
    } finally {
      await server.stop();
    }

    // A restart as `npm start` runs it, in a process of its own started with umask 022, its log in files.
    process.umask(0o022);
    const logDir = path.join(parent, 'logs');
    const restarted = await startGatewayProcess({ DATA_DIR: dataDir, LOG_DIR: logDir, LOG_LEVEL: 'info' });
    try {
      const another = uniqueEmail('private-again');
      await signUp(createApiClient(restarted.url), { email: another });
      await latestMail(dataDir, another);
      const again = await modesUnder(dataDir);
      expect(again).toEqual(await ownerOnly(dataDir, again));
      const logs = await modesUnder(logDir);
      expect(Object.keys(logs)).toContainEqual(expect.stringMatching(/^gateway\.[\d-]+\.1\.log$/));
      expect(logs).toEqual(await ownerOnly(logDir, logs));
    } finally {
      await restarted.terminate();
    }
  });

  it('tightens a folder the operator made 0755 with a 0644 file in it, and names what it cannot', async () => {
    const dataDir = path.join(await newFolder(), 'data');
    await mkdir(path.join(dataDir, 'notes'), { recursive: true, mode: 0o755 });
    await chmod(dataDir, 0o755);
    await writeFile(path.join(dataDir, 'notes', 'todo.txt'), 'made by the operator\n', { mode: 0o644 });
    const foreign = path.join(dataDir, 'someone-elses.txt');
    await writeFile(foreign, 'not ours\n', { mode: 0o644 });
    // Only root can give a file away; then the process, whose user it no longer is, must leave it.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) await chown(foreign, 65534, 65534);

    const { log, lines } = capturedLog();
    process.umask(0o022);
    const server = await startTestServer({ dataDir, log });
    try {
      const modes = await modesUnder(dataDir);
      expect(modes).toMatchObject({ '.': '700', notes: '700', 'notes/todo.txt': '600' });
      const warnings = lines.filter((line) => line.readableByOthers);
      if (asRoot) {
        expect(modes['someone-elses.txt']).toBe('644');
        expect(warnings).toHaveLength(1);
        expect(warnings[0]!.readableByOthers).toEqual([foreign]);
        expect(warnings[0]!.msg).toContain(`other users of this machine can read ${foreign}`);
      } else {
        expect(modes['someone-elses.txt']).toBe('600');
        expect(warnings).toEqual([]);
      }
    } finally {
      await server.stop();
    }
  });
});
