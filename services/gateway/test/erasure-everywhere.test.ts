import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import {
  as,
  countingLogReads,
  createFundraiser,
  latestMail,
  type RequestOptions,
  runToEnd,
  scanner,
  signUp,
  tokenIn,
  uniqueEmail,
  WAIT_MS,
  toolCommand,
} from '@qrshirt/test-support';
import { describeWithRedis } from '@qrshirt/test-support/vitest';
import { openEventStore } from '@qrshirt/runtime';
import { type AdminTestServer, startAdminServer } from './support/admin';
import { confirmDonation } from './support/webhooks';

/*
 * After a person is erased (an account closed, a waitlist signup removed), no place the product
 * keeps data holds their name or email: not the admin views, not the replay analysts download or
 * run, not the bytes of any SQLite file (WAL included), not Redis, where read models, credentials
 * and the outbox live with REDIS_URL and CREDENTIALS_STORE=redis, not the mail written as files.
 */
const groupings = ['day', 'charity', 'fundraiser', 'shirt'] as const;

describeWithRedis(
  'erasing a person',
  (redis) => {
    let server: AdminTestServer | undefined;
    afterAll(async () => {
      await server?.stop();
      if (server) await rm(server.dataDir, { recursive: true, force: true });
    });

    /** Every key and every value Redis holds, whatever its type, as one text. */
    async function redisContents(): Promise<string> {
      const client = new Redis(redis.url);
      try {
        const parts: string[] = [];
        for await (const keys of client.scanStream({ count: 1000 })) {
          for (const key of keys as string[]) {
            const type = await client.type(key);
            const value =
              type === 'string'
                ? await client.get(key)
                : type === 'hash'
                  ? await client.hgetall(key)
                  : type === 'zset'
                    ? await client.zrange(key, 0, -1, 'WITHSCORES')
                    : type === 'set'
                      ? await client.smembers(key)
                      : type === 'list'
                        ? await client.lrange(key, 0, -1)
                        : type === 'stream'
                          ? await client.xrange(key, '-', '+')
                          : `(${type})`;
            parts.push(key, JSON.stringify(value));
          }
        }
        expect(parts.length).toBeGreaterThan(0);
        return parts.join('\n');
      } finally {
        client.disconnect();
      }
    }

    async function sqliteBytes(dataDir: string): Promise<string> {
      const files = ['events.sqlite', 'read-models.sqlite', 'credentials.sqlite', 'outbox.sqlite'].flatMap((name) => [
        name,
        `${name}-wal`,
      ]);
      const parts = await Promise.all(
        files.map((name) => readFile(path.join(dataDir, name)).catch(() => Buffer.alloc(0))),
      );
      return Buffer.concat(parts).toString('latin1');
    }

    /** The mail the gateway wrote as files (it has no SMTP_URL), every one as one text. */
    async function mailFiles(dataDir: string): Promise<string> {
      const folder = path.join(dataDir, 'mail');
      const names = await readdir(folder);
      return (await Promise.all(names.map((name) => readFile(path.join(folder, name), 'utf8')))).join('\n');
    }

    async function adminViews(api: AdminTestServer['api'], admin: RequestOptions): Promise<string> {
      const texts: string[] = [];
      let after: number | null = null;
      do {
        const page = await api(
          'GET',
          `/api/admin/events?reveal=true&limit=500&order=oldest${after === null ? '' : `&after=${after}`}`,
          admin,
        );
        expect(page.status).toBe(200);
        texts.push(JSON.stringify(page.body.events));
        after = page.body.next as number | null;
      } while (after !== null);
      for (const view of [
        '/api/admin/waitlist/entries?limit=500',
        '/api/admin/waitlist/entries.csv',
        '/api/admin/waitlist',
        '/api/admin/outbox?limit=100',
        '/api/admin/overview',
      ]) {
        const answer = await api('GET', view, admin);
        expect(answer.status, view).toBeLessThan(500);
        texts.push(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
      }
      for (const groupBy of groupings) {
        const download = await api('GET', `/api/admin/replay?groupBy=${groupBy}&format=csv`, admin);
        expect(download.status).toBe(200);
        texts.push(String(download.body));
      }
      return texts.join('\n');
    }

    async function replayOutput(dataDir: string): Promise<string> {
      const outputs = await Promise.all(
        groupings.map(async (groupBy) => {
          const run = await runToEnd({
            name: 'replay-donations',
            command: toolCommand('replay-donations', ['--group-by', groupBy, '--format', 'ndjson']),
            env: { DATA_DIR: dataDir, EVENTSTORE_URL: '' },
          });
          expect(run.status, run.stderr).toBe(0);
          return run.stdout + run.stderr;
        }),
      );
      return outputs.join('\n');
    }

    it('leaves their name and email in no admin view, replay, SQLite file or Redis key', async () => {
      let logReads: string[] = [];
      server = await startAdminServer({
        env: { REDIS_URL: redis.url, CREDENTIALS_STORE: 'redis' },
        eventStore: (config) => {
          const counted = countingLogReads(openEventStore(config));
          logReads = counted.reads;
          return counted.store;
        },
      });
      const { api } = server;
      const admin = server.admin;

      // An account holder with a fundraiser that has figures, and a waitlist signup of someone else.
      const email = uniqueEmail('winifred');
      const name = 'Winifred Quarrington';
      const session = await signUp(api, { email, displayName: name });
      const photo = `https://photos.example/${session.user.uid}/winifred.jpg`;
      const withPhoto = await api('PATCH', `/api/user/${session.user.uid}`, {
        ...as(session),
        body: { photoURL: photo },
      });
      expect(withPhoto).toMatchObject({ status: 200, body: { photoURL: photo } });
      const fundraiser = await createFundraiser(api, as(session), { name: 'The big walk' });
      expect((await api('POST', `/api/fundraisers/${fundraiser.id}/scan`, { headers: scanner(7) })).status).toBe(202);
      await confirmDonation(api, { fundraiserId: fundraiser.id, amount: 12 });

      const shirts = (await api('GET', '/api/shirts')).body as { id: string; sizes: string[] }[];
      const charities = (await api('GET', '/api/charities')).body as { id: string }[];
      const signupEmail = uniqueEmail('bartholomew');
      const signupName = 'Bartholomew Inchcape';
      const join = async (who: string, address: string, mailsBefore: number) => {
        const joined = await api('POST', '/api/waitlist', {
          body: {
            shirtId: shirts[0]!.id,
            selectedSize: shirts[0]!.sizes[0],
            selectedCharity: charities[0]!.id,
            name: who,
            email: address,
          },
        });
        expect(joined.status).toBe(201);
        const mail = await latestMail(server!.dataDir, address, mailsBefore + 1);
        const token = (page: string) => new RegExp(`/${page}#token=([A-Za-z0-9_.-]+)`).exec(mail.text)![1]!;
        expect(
          (await api('POST', '/api/waitlist/confirm', { body: { token: token('waitlist/confirm') } })).status,
        ).toBe(200);
        return { entryId: joined.body.data.id as string, removeToken: token('waitlist/remove') };
      };
      const signup = await join(signupName, signupEmail, 0);
      // The account holder proves the address theirs, then signs up for a shirt with it in another
      // case: closing the account takes that signup too.
      const verifyToken = tokenIn(await latestMail(server.dataDir, email), 'verify-email');
      expect(
        (await api('POST', '/api/auth/verify-email', { ...as(session), body: { token: verifyToken } })).status,
      ).toBe(200);
      const own = await join(name, email.toUpperCase(), 1);
      await server.embedded.projectionsCaughtUp(WAIT_MS);

      // Before: everything holds them, so the checks below can tell.
      const before = [await adminViews(api, admin), await redisContents(), await mailFiles(server.dataDir)].join('\n');
      for (const clear of [email, email.toUpperCase(), name, photo, signupEmail, signupName])
        expect(before).toContain(clear);

      logReads.length = 0;
      expect(
        (await api('DELETE', `/api/user/${session.user.uid}`, { ...as(session), body: { password: 'correct horse' } }))
          .status,
      ).toBe(204);
      // The signups and receipt addresses made with the address are found by its records, not the log.
      expect(logReads).toEqual([]);
      expect((await api('POST', '/api/waitlist/remove', { body: { token: signup.removeToken } })).status).toBe(200);
      // The account's signup went with it: its own link finds nothing left to remove.
      expect((await api('POST', '/api/waitlist/remove', { body: { token: own.removeToken } })).status).toBe(404);
      const entries = (await api('GET', '/api/admin/waitlist/entries?limit=500', admin)).body.entries as {
        id: string;
        status: string;
      }[];
      expect(entries.filter(({ id }) => id === own.entryId || id === signup.entryId)).toEqual([
        expect.objectContaining({ status: 'removed' }),
        expect.objectContaining({ status: 'removed' }),
      ]);
      await server.embedded.projectionsCaughtUp(WAIT_MS);

      const places = {
        'admin views': await adminViews(api, admin),
        replay: await replayOutput(server.dataDir),
        'SQLite files': await sqliteBytes(server.dataDir),
        Redis: await redisContents(),
        'mail files': await mailFiles(server.dataDir),
      };
      for (const [place, text] of Object.entries(places)) {
        for (const clear of [email, email.toUpperCase(), name, photo, signupEmail, signupName])
          expect(text, `${clear} in ${place}`).not.toContain(clear);
      }
      // The figures stay: the replay still counts the closed account's fundraiser.
      expect(places.replay).toContain(fundraiser.id);
    });
  },
  { ownServer: true },
);
