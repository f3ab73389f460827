import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { readErasureJournal } from '@qrshirt/runtime';
import { createSqliteEventStore } from '@qrshirt/sqlite';
import {
  as,
  type ApiClient,
  createApiClient,
  createFundraiser,
  type GatewayProcess,
  latestMail,
  newClient,
  type RequestOptions,
  runToEnd,
  scaled,
  scanLedger,
  launchProcess,
  mountSmallDisk,
  signUp,
  skipsWithoutSmallDisk,
  startGatewayProcess,
  startScanLoad,
  TEST_LOOKUP_KEY_SECRET,
  tokenIn,
  uniqueEmail,
  waitFor,
  waitForLine,
  toolCommand,
} from '@qrshirt/test-support';
import { recloseAccounts } from '../backup/reclose-accounts';

/*
 * The restore drill on real SQLite files and the real product: a backup taken while scans and
 * sign-ups run, restored into a new folder, started from; and the refusals of both commands.
 */
const ADMIN_EMAIL = 'ops@example.org';
const DATABASES = ['events.sqlite', 'read-models.sqlite', 'credentials.sqlite', 'outbox.sqlite'];

const folders: string[] = [];
const gateways: GatewayProcess[] = [];
afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.terminate()));
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

async function newFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'qrshirt-backup-'));
  folders.push(folder);
  return folder;
}

async function startGateway(dataDir: string): Promise<{ gateway: GatewayProcess; api: ApiClient }> {
  const gateway = await startGatewayProcess({ DATA_DIR: dataDir, ADMIN_EMAILS: ADMIN_EMAIL });
  gateways.push(gateway);
  return { gateway, api: createApiClient(gateway.url) };
}

/** A data folder the product started on, with one account in it, and stopped. */
async function storeWithAnAccount(): Promise<string> {
  const dataDir = await newFolder();
  const { gateway, api } = await startGateway(dataDir);
  await signUp(api);
  await gateway.terminate();
  return dataDir;
}

const run = (tool: 'backup' | 'restore' | 'replay-donations', args: string[], env: Record<string, string> = {}) =>
  runToEnd({
    name: tool,
    command: toolCommand(tool, args),
    env: { EVENTSTORE_URL: '', LOOKUP_KEY_SECRET: TEST_LOOKUP_KEY_SECRET, ...env },
  });

async function signIn(api: ApiClient, email: string, password = 'correct horse') {
  return api('POST', '/api/auth/signin', { body: { email, password }, headers: newClient() });
}

/** Everything the admin screens and the replay download show, as one text. */
async function adminViews(api: ApiClient, admin: RequestOptions): Promise<string> {
  const texts: string[] = [];
  let after: number | null = null;
  do {
    const query: string = after === null ? '' : `&after=${after}`;
    const page = await api('GET', `/api/admin/events?reveal=true&limit=500&order=oldest${query}`, admin);
    expect(page.status).toBe(200);
    texts.push(JSON.stringify(page.body.events));
    after = page.body.next as number | null;
  } while (after !== null);
  for (const view of ['/api/admin/waitlist/entries?limit=500', '/api/admin/outbox?limit=100', '/api/admin/overview']) {
    const answer = await api('GET', view, admin);
    expect(answer.status, view).toBe(200);
    texts.push(JSON.stringify(answer.body));
  }
  const download = await api('GET', '/api/admin/replay?groupBy=fundraiser&format=csv', admin);
  expect(download.status).toBe(200);
  return texts.join('\n') + String(download.body);
}

async function headOf(eventsFile: string): Promise<number> {
  const log = createSqliteEventStore({ path: eventsFile });
  try {
    return await log.headPosition();
  } finally {
    await log.close();
  }
}

async function sqliteBytes(dataDir: string): Promise<string> {
  const names = (await readdir(dataDir)).filter((name) => DATABASES.some((db) => name.startsWith(db)));
  const parts = await Promise.all(names.map((name) => readFile(path.join(dataDir, name))));
  return Buffer.concat(parts).toString('latin1');
}

describe('backup and restore', () => {
  it(
    'restores a backup taken under load, with the erasures and closings made since applied again',
    async () => {
      const dataDir = await newFolder();
      const { gateway, api } = await startGateway(dataDir);
      const adminSession = await signUp(api, { email: ADMIN_EMAIL, displayName: 'Olga Ops' });
      const verify = tokenIn(await latestMail(dataDir, ADMIN_EMAIL), 'verify-email');
      expect(
        (await api('POST', '/api/auth/verify-email', { ...as(adminSession), body: { token: verify } })).status,
      ).toBe(200);
      const admin = as(adminSession);

      const bobEmail = uniqueEmail('bob');
      const bob = await signUp(api, { email: bobEmail, displayName: 'Bob Keeper' });
      const fundraiser = await createFundraiser(api, as(bob), { name: 'Kept walk' });
      const aliceEmail = uniqueEmail('alice');
      const aliceName = 'Alice Vanishing-Smythe';
      const alice = await signUp(api, { email: aliceEmail, displayName: aliceName });
      await latestMail(dataDir, aliceEmail);
      const daveEmail = uniqueEmail('dave');
      const daveName = 'Dave Erased-Byop';
      const dave = await signUp(api, { email: daveEmail, displayName: daveName });
      // Carol closes her account before the backup: the journal and the backed-up log both hold it.
      const carolEmail = uniqueEmail('carol');
      const carol = await signUp(api, { email: carolEmail, displayName: 'Carol Early' });
      const carolClosed = await api('DELETE', `/api/user/${carol.user.uid}`, {
        ...as(carol),
        body: { password: 'correct horse' },
      });
      expect(carolClosed.status).toBe(204);

      // Scans and sign-ups run before, during and after the backup.
      const load = startScanLoad({ url: gateway.url, fundraiserIds: [fundraiser.id], concurrency: 4, total: 100_000 });
      const acknowledged = (after = 0) =>
        load.answers.filter((answer) => answer.status === 202 && answer.sentAt >= after).length;
      let signingUp = true;
      let signedUp = 0;
      const signUps = (async () => {
        while (signingUp) {
          await signUp(api, { displayName: 'Load Person' });
          signedUp++;
        }
      })();
      await waitFor('scans and a sign-up before the backup', () => acknowledged() > 10 && signedUp > 0);

      const backupDir = path.join(await newFolder(), 'backup');
      const backupStartedAt = performance.now();
      const backup = await run('backup', ['--to', backupDir], { DATA_DIR: dataDir });
      expect(backup.status, backup.stderr).toBe(0);
      const backupEndedAt = performance.now();
      expect(backup.stderr).toContain(
        `backup: warning: the personal-data keys are in ${path.join(backupDir, 'keys')}, beside the log`,
      );
      const signedUpDuring = signedUp;
      const acknowledgedBefore = load.answers.filter(
        (answer) => answer.status === 202 && answer.answeredAt < backupStartedAt,
      );
      expect(acknowledgedBefore.length).toBeGreaterThan(10);
      await waitFor(
        'scans and a sign-up after the backup',
        () => acknowledged(backupEndedAt) > 0 && signedUp > signedUpDuring,
      );
      signingUp = false;
      await load.stop();
      await signUps;
      expect(load.answers.filter((answer) => answer.status !== 202)).toEqual([]);

      const manifest = JSON.parse(await readFile(path.join(backupDir, 'manifest.json'), 'utf8'));
      expect(manifest.files.map(({ name }: { name: string }) => name)).toEqual([
        'read-models.sqlite',
        'events.sqlite',
        'outbox.sqlite',
        'credentials.sqlite',
      ]);
      expect(manifest.keys).toMatchObject({ name: 'personal-data-keys.sqlite' });
      expect(manifest.keys.keys).toBeGreaterThan(3);
      // The journal as it was: Carol's erasure, in a backup whose log and credentials show it done.
      expect(manifest.journal).toMatchObject({ name: 'erasures.jsonl' });
      const journalCopy = await readErasureJournal(path.join(backupDir, 'erasures.jsonl'));
      expect(journalCopy.map(({ subject }) => subject)).toEqual([`user-${carol.user.uid}`]);
      // Each read model's checkpoint as copied: the restored ones resume from there.
      const { checkpoints } = manifest.files[0];
      for (const projection of ['catalog', 'fundraisers', 'users', 'waitlist']) {
        expect(checkpoints[projection], projection).toBeGreaterThan(0);
      }
      // The keys are in their own file: the credentials' copy holds none.
      const credentialsCopy = new Database(path.join(backupDir, 'credentials.sqlite'), { readonly: true });
      expect(credentialsCopy.prepare('SELECT COUNT(*) AS n FROM personal_data_keys').get()).toEqual({ n: 0 });
      credentialsCopy.close();

      // Before: the views show her, so the checks below can tell.
      expect(await adminViews(api, admin)).toContain(aliceName);
      // After the backup, Alice closes her account and an operator erases Dave.
      const closed = await api('DELETE', `/api/user/${alice.user.uid}`, {
        ...as(alice),
        body: { password: 'correct horse' },
      });
      expect(closed.status).toBe(204);
      expect((await api('DELETE', `/api/admin/users/${dave.user.uid}`, admin)).status).toBe(204);
      await gateway.terminate();

      // A journal that does not continue the backup's (an older one) is refused; without one, the
      // backup's own copy is applied, with a warning about anyone erased since.
      const olderJournal = path.join(await newFolder(), 'erasures.jsonl');
      await writeFile(olderJournal, '');
      const older = await run('restore', ['--from', backupDir, '--erasures', olderJournal], {
        DATA_DIR: path.join(await newFolder(), 'data'),
      });
      expect(older.status).toBe(2);
      expect(older.stderr).toMatch(/erasures.jsonl does not continue the erasure journal the backup holds/);
      const withoutJournalDir = path.join(await newFolder(), 'data');
      const withoutJournal = await run('restore', ['--from', backupDir, '--no-erasures'], {
        DATA_DIR: withoutJournalDir,
      });
      expect(withoutJournal.status, withoutJournal.stderr).toBe(0);
      expect(withoutJournal.stderr).toContain(
        `restore: warning: --no-erasures: only the 1 erasures the backup's journal holds were applied; ` +
          `anyone erased after ${manifest.takenAt} is back`,
      );
      expect(await readErasureJournal(path.join(withoutJournalDir, 'erasures.jsonl'))).toEqual(journalCopy);

      const restoredDir = path.join(await newFolder(), 'data');
      const restore = await run('restore', ['--from', backupDir, '--erasures', path.join(dataDir, 'erasures.jsonl')], {
        DATA_DIR: restoredDir,
      });
      expect(restore.status, restore.stderr).toBe(0);
      expect(restore.stderr).toContain('2 people erased since');
      expect(restore.stderr).toContain('2 accounts closed since');

      const restored = await startGateway(restoredDir);
      const eventsFile = path.join(restoredDir, 'events.sqlite');
      const log = createSqliteEventStore({ path: eventsFile });
      const closingsOf = async (uid: string) =>
        (await log.readStream(`user-${uid}`))
          .filter(({ type }) => type === 'UserAccountClosed')
          .map(({ data }) => data as Record<string, unknown>);
      try {
        const recorded = new Set((await scanLedger(log).scans()).map(({ scanId }) => scanId));
        const missing = acknowledgedBefore.filter(({ scanId }) => !recorded.has(scanId!));
        expect(missing).toEqual([]);
        // Each account closed once, as the product closed it, whether before or after the backup.
        expect(await closingsOf(alice.user.uid)).toEqual([expect.objectContaining({ by: 'self' })]);
        expect(await closingsOf(dave.user.uid)).toEqual([
          expect.objectContaining({ by: 'admin', adminId: adminSession.user.uid }),
        ]);
        expect(await closingsOf(carol.user.uid)).toHaveLength(1);
      } finally {
        await log.close();
      }

      // Sign-in with the restored credentials; not as the people erased since, who are refused as
      // Carol is, whose account was closed in the backup already.
      expect((await signIn(restored.api, bobEmail)).status).toBe(200);
      const refused = await signIn(restored.api, carolEmail);
      expect(refused.status).toBe(401);
      for (const email of [aliceEmail, daveEmail]) {
        expect(await signIn(restored.api, email), email).toMatchObject({ status: refused.status, body: refused.body });
      }
      const restoredAdmin = as((await signIn(restored.api, ADMIN_EMAIL)).body);
      // Operators see them closed: there is no one left to erase, and Dave's erasure is in the audit.
      const gone = await restored.api('DELETE', `/api/admin/users/${carol.user.uid}`, restoredAdmin);
      expect(gone.status).toBe(404);
      for (const { user } of [alice, dave]) {
        expect(await restored.api('DELETE', `/api/admin/users/${user.uid}`, restoredAdmin), user.uid).toMatchObject({
          status: 404,
          body: gone.body,
        });
      }
      const audit = await restored.api('GET', '/api/admin/audit?limit=500', restoredAdmin);
      expect(audit.status).toBe(200);
      expect(JSON.stringify(audit.body)).toContain(JSON.stringify({ userId: dave.user.uid }));
      const bobAgain = as((await signIn(restored.api, bobEmail)).body);

      const stats = async (client: ApiClient, owner: RequestOptions) => {
        const answer = await client('GET', `/api/fundraisers/${fundraiser.id}/stats`, owner);
        expect(answer.status).toBe(200);
        return answer.body;
      };
      const restoredStats = await stats(restored.api, bobAgain);
      expect(restoredStats.scanRequests).toBeGreaterThanOrEqual(acknowledgedBefore.length);
      const places = {
        'admin views': await adminViews(restored.api, restoredAdmin),
        export: JSON.stringify((await restored.api('GET', `/api/user/${bob.user.uid}/export`, bobAgain)).body),
      };
      await restored.gateway.terminate();
      // The journal's closings are in the restored log: recorded again, they add nothing.
      const head = await headOf(eventsFile);
      const journal = await readErasureJournal(path.join(dataDir, 'erasures.jsonl'));
      expect(
        await recloseAccounts(
          eventsFile,
          journal.flatMap(({ act }) => (act ? [act] : [])),
        ),
      ).toBe(0);
      expect(await headOf(eventsFile)).toBe(head);
      const replay = await run('replay-donations', ['--group-by', 'fundraiser', '--format', 'ndjson'], {
        DATA_DIR: restoredDir,
      });
      expect(replay.status, replay.stderr).toBe(0);
      Object.assign(places, { replay: replay.stdout + replay.stderr, 'SQLite files': await sqliteBytes(restoredDir) });
      for (const [place, text] of Object.entries(places)) {
        for (const clear of [
          aliceEmail,
          aliceEmail.toLowerCase(),
          aliceName,
          daveEmail,
          daveEmail.toLowerCase(),
          daveName,
        ]) {
          expect(text, `${clear} in ${place}`).not.toContain(clear);
        }
      }
      expect(places.export).toContain(bobEmail);

      // The restored read models agree with ones rebuilt from the restored log.
      await rm(path.join(restoredDir, 'read-models.sqlite'));
      const rebuilt = await startGateway(restoredDir);
      const rebuiltBob = as((await signIn(rebuilt.api, bobEmail)).body);
      expect(await stats(rebuilt.api, rebuiltBob)).toEqual(restoredStats);
      await rebuilt.gateway.terminate();
    },
    // Only a hung run reaches it: a slow 2-core machine beside a CPU hog took 189 s.
    scaled(480_000),
  );

  it(
    'leaves no unfinished copy behind: those of runs that died are removed, its own when interrupted',
    async () => {
      const dataDir = await storeWithAnAccount();
      const place = await newFolder();
      const backupDir = path.join(place, 'backup');
      const target = path.join(place, 'data');
      // A pid no process has any more; this process's stands for a run still going.
      const gone = spawnSync('true').pid;
      const left = [`backup.partial-${gone}`, `backup.partial-${process.pid}`, `data.restoring-${gone}`];
      for (const name of left) {
        await mkdir(path.join(place, name));
        await writeFile(path.join(place, name, 'credentials.sqlite'), 'a copy');
      }
      const backup = await run('backup', ['--to', backupDir], { DATA_DIR: dataDir });
      expect(backup.status, backup.stderr).toBe(0);
      expect((await readdir(place)).sort()).toEqual([
        'backup',
        `backup.partial-${process.pid}`,
        `data.restoring-${gone}`,
      ]);
      const restore = await run('restore', ['--from', backupDir, '--no-erasures'], { DATA_DIR: target });
      expect(restore.status, restore.stderr).toBe(0);
      expect((await readdir(place)).sort()).toEqual(['backup', `backup.partial-${process.pid}`, 'data']);

      // A secret that is a pipe nobody writes to holds the backup after it copied every database.
      const secret = path.join(dataDir, 'auth-secret');
      await rm(secret, { force: true });
      expect(spawnSync('mkfifo', [secret]).status).toBe(0);
      const interrupted = launchProcess({
        name: 'backup',
        command: toolCommand('backup', ['--to', path.join(place, 'second')]),
        env: { EVENTSTORE_URL: '', LOOKUP_KEY_SECRET: TEST_LOOKUP_KEY_SECRET, DATA_DIR: dataDir },
      });
      // Opening the pipe's other end returns once the backup opened it to read.
      const ended = interrupted.exited.then(
        (status) =>
          new Error(`the backup ended (${status}) before it read the secret:\n${interrupted.output.join('\n')}`),
      );
      const writer = await Promise.race([open(secret, 'w'), ended]);
      if (writer instanceof Error) throw writer;
      try {
        expect(await readdir(place)).toContain(`second.partial-${interrupted.pid}`);
        process.kill(interrupted.pid, 'SIGINT');
        await waitForLine(
          interrupted,
          (line) => line === 'backup: interrupted by SIGINT; its unfinished copy was removed',
        );
      } finally {
        // Node's exit waits for the read of the pipe, which ends only once its writer closes.
        await writer.close();
      }
      expect(await interrupted.exited).toBe(130);
      expect((await readdir(place)).sort()).toEqual(['backup', `backup.partial-${process.pid}`, 'data']);
    },
    scaled(360_000),
  );

  describe('refuses with exit code 2 and one line, overwriting nothing', () => {
    it('a backup into a folder that holds something', async () => {
      const dataDir = await newFolder();
      const { gateway } = await startGateway(dataDir);
      await gateway.terminate();
      const to = await newFolder();
      await writeFile(path.join(to, 'precious.txt'), 'mine');
      const backup = await run('backup', ['--to', to], { DATA_DIR: dataDir });
      expect(backup.status).toBe(2);
      expect(backup.stderr.trim().split('\n')).toEqual([expect.stringMatching(/is not empty/)]);
      expect(await readdir(to)).toEqual(['precious.txt']);
    });

    it.skipIf(skipsWithoutSmallDisk('a backup onto a full disk'))(
      'a backup onto a disk without room for it, in a line naming the space missing',
      async () => {
        const dataDir = await storeWithAnAccount();
        const disk = await mountSmallDisk(8 * 2 ** 20);
        try {
          await disk.fill();
          const to = path.join(disk.dir!, 'backups', 'today');
          const backup = await run('backup', ['--to', to, '--keys-to', path.join(await newFolder(), 'keys')], {
            DATA_DIR: dataDir,
          });
          expect(backup.status).toBe(2);
          expect(backup.stderr.trim().split('\n')).toEqual([
            expect.stringMatching(
              new RegExp(
                `^backup: not enough space for ${to}: 0\\.\\d MiB free, the backup needs about \\d+\\.\\d MiB \\(\\d+\\.\\d MiB missing\\)$`,
              ),
            ),
          ]);
          expect((await readdir(disk.dir!)).sort()).toEqual(['filler', 'lost+found']);
        } finally {
          await disk.unmount();
        }
      },
      scaled(360_000),
    );

    it(
      'a restore from a folder without a manifest, with a wrong checksum, or into a folder that holds something',
      async () => {
        const dataDir = await newFolder();
        const { gateway } = await startGateway(dataDir);
        await gateway.terminate();
        const backupDir = path.join(await newFolder(), 'backup');
        expect((await run('backup', ['--to', backupDir], { DATA_DIR: dataDir })).status).toBe(0);

        const restoreInto = async (from: string, target: string) => {
          const restore = await run('restore', ['--from', from, '--no-erasures'], { DATA_DIR: target });
          expect(restore.status, restore.stderr).toBe(2);
          expect(restore.stderr.trim().split('\n')).toHaveLength(1);
          return restore.stderr;
        };
        const target = path.join(await newFolder(), 'data');
        expect(await restoreInto(await newFolder(), target)).toMatch(/not a backup manifest/);
        const events = path.join(backupDir, 'events.sqlite');
        const bytes = await readFile(events);
        bytes[bytes.length - 1] = bytes.at(-1)! ^ 0xff;
        await writeFile(events, bytes);
        expect(await restoreInto(backupDir, target)).toMatch(/does not match the manifest's checksum/);
        expect(await readdir(path.dirname(target))).toEqual([]);
        bytes[bytes.length - 1] = bytes.at(-1)! ^ 0xff;
        await writeFile(events, bytes);
        expect(await restoreInto(backupDir, dataDir)).toMatch(/is not empty/);
        const restore = await run('restore', ['--from', backupDir], { DATA_DIR: target });
        expect(restore.status).toBe(2);
        expect(restore.stderr).toMatch(/no erasure journal/);
        expect((await run('restore', ['--from', backupDir, '--no-erasures'], { DATA_DIR: target })).status).toBe(0);
      },
      scaled(360_000),
    );

    it(
      'a restore of a signed backup altered with its checksums redone, or unsigned since, or without the key',
      async () => {
        const dataDir = await newFolder();
        const { gateway } = await startGateway(dataDir);
        await gateway.terminate();
        const signing = { BACKUP_HMAC_KEY: randomBytes(24).toString('base64') };
        const backupDir = path.join(await newFolder(), 'backup');
        const backup = await run('backup', ['--to', backupDir], { DATA_DIR: dataDir, ...signing });
        expect(backup.status, backup.stderr).toBe(0);
        expect(backup.stderr).not.toContain('not signed');
        const intact = await run('restore', ['--from', backupDir, '--no-erasures'], {
          DATA_DIR: path.join(await newFolder(), 'data'),
          ...signing,
        });
        expect(intact.status, intact.stderr).toBe(0);
        expect(intact.stderr).not.toContain('not signed');

        // An event changed, and the manifest's checksum of the log redone to match.
        const events = path.join(backupDir, 'events.sqlite');
        const bytes = await readFile(events);
        bytes[bytes.length - 1] = bytes.at(-1)! ^ 0xff;
        await writeFile(events, bytes);
        const manifestFile = path.join(backupDir, 'manifest.json');
        const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as {
          files: { name: string; sha256: string }[];
        };
        manifest.files.find(({ name }) => name === 'events.sqlite')!.sha256 = createHash('sha256')
          .update(bytes)
          .digest('hex');
        await writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
        const target = path.join(await newFolder(), 'data');
        const restoreWith = async (env: Record<string, string>) => {
          const restore = await run('restore', ['--from', backupDir, '--no-erasures'], { DATA_DIR: target, ...env });
          expect(restore.status, restore.stderr).toBe(2);
          expect(restore.stderr.trim().split('\n')).toHaveLength(1);
          return restore.stderr;
        };
        expect(await restoreWith(signing)).toMatch(
          /does not match its signature under BACKUP_HMAC_KEY: it was altered/,
        );
        expect(await restoreWith({})).toMatch(/the backup is signed: set BACKUP_HMAC_KEY as the backup had it/);
        await rm(path.join(backupDir, 'manifest.hmac'));
        expect(await restoreWith(signing)).toMatch(/manifest.json is not signed, and BACKUP_HMAC_KEY is set/);
        expect(await readdir(path.dirname(target))).toEqual([]);
      },
      scaled(360_000),
    );

    it(
      'a restore without the keys a backup put apart (--keys-to), until --keys-from names them',
      async () => {
        const dataDir = await storeWithAnAccount();
        const backupDir = path.join(await newFolder(), 'backup');
        const keysDir = path.join(await newFolder(), 'keys');
        const backup = await run('backup', ['--to', backupDir, '--keys-to', keysDir], { DATA_DIR: dataDir });
        expect(backup.status, backup.stderr).toBe(0);
        expect(backup.stderr).not.toContain('warning: the personal-data keys');
        expect(await readdir(backupDir)).not.toContain('keys');
        expect(await readdir(keysDir)).toEqual(['personal-data-keys.sqlite']);

        const target = path.join(await newFolder(), 'data');
        const withoutKeys = await run('restore', ['--from', backupDir, '--no-erasures'], { DATA_DIR: target });
        expect(withoutKeys.status).toBe(2);
        expect(withoutKeys.stderr).toMatch(/personal-data-keys.sqlite is missing/);
        const restore = await run('restore', ['--from', backupDir, '--keys-from', keysDir, '--no-erasures'], {
          DATA_DIR: target,
        });
        expect(restore.status, restore.stderr).toBe(0);
        expect(restore.stderr).toMatch(/ [1-9]\d* personal-data keys/);
        expect(restore.stderr).toContain('restore: warning: the backup is not signed (BACKUP_HMAC_KEY was not set');
      },
      scaled(360_000),
    );
  });
});
