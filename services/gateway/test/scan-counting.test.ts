import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFundraiser, PHONE, ROBOTS, scanner, WAIT_MS } from '@qrshirt/test-support';
import { asUser, startTestServer, type TestServer, userToken } from './support/test-server';

/**
 * "A scan is a person, once", in the embedded process: counted at most once per visitor per
 * fundraiser per 30 minutes and 30 times per address per fundraiser per hour, robots never; every
 * request stored, with a hash of its visitor and no address.
 */
let server: TestServer;
let now = new Date('2026-03-01T10:00:00.000Z');
const MINUTE = 60_000;
const later = (minutes: number) => {
  now = new Date(now.getTime() + minutes * MINUTE);
};

beforeAll(async () => {
  server = await startTestServer({ clock: () => now });
});
afterAll(() => server.stop());

interface StoredScan {
  scanId: string;
  fundraiserId: string;
  at: string;
  visitorHash: string;
  addressHash: string;
  bot: boolean;
  counted: boolean;
}

async function storedScans(fundraiserId: string): Promise<StoredScan[]> {
  const events = await server.embedded.eventStore.readAll({ eventTypes: ['ScanRecorded'] });
  return events.map((event) => event.data as StoredScan).filter((scan) => scan.fundraiserId === fundraiserId);
}

async function stats(fundraiserId: string, owner: string) {
  await server.embedded.projectionsCaughtUp(WAIT_MS);
  const answer = await server.api('GET', `/api/fundraisers/${fundraiserId}/stats`, { token: userToken(owner) });
  return answer.body as { scans: number; scanRequests: number };
}

async function scan(fundraiserId: string, headers: Record<string, string>) {
  const answer = await server.api('POST', `/api/fundraisers/${fundraiserId}/scan`, { headers });
  expect(answer.status).toBe(202);
  return answer;
}

describe('POST /api/fundraisers/{id}/scan counts people, once', () => {
  it('counts two user agents from one address twice, and the same one once per 30 minutes', async () => {
    const { id } = await createFundraiser(server.api, asUser('window-owner'));
    const address = '198.51.100.20';
    await scan(id, scanner(0, { address, userAgent: PHONE }));
    await scan(id, scanner(0, { address, userAgent: `${PHONE} (the other phone)` }));
    later(29);
    await scan(id, scanner(0, { address, userAgent: PHONE }));
    later(1);
    await scan(id, scanner(0, { address, userAgent: PHONE }));

    expect(await stats(id, 'window-owner')).toMatchObject({ scans: 3, scanRequests: 4 });
    const stored = await storedScans(id);
    expect(stored.map((event) => event.counted)).toEqual([true, true, false, true]);
    const [first, other, repeat, again] = stored.map((event) => event.visitorHash);
    expect(new Set([first, repeat, again])).toEqual(new Set([first]));
    expect(other).not.toBe(first);
    expect(new Set(stored.map((event) => event.addressHash)).size).toBe(1);

    // The same person scanning another shirt is another fundraiser's visitor, under another hash.
    const { id: elsewhere } = await createFundraiser(server.api, asUser('window-owner-2'));
    await scan(elsewhere, scanner(0, { address, userAgent: PHONE }));
    const [there] = await storedScans(elsewhere);
    expect(there).toMatchObject({ counted: true });
    expect(there!.visitorHash).not.toBe(first);
  });

  it('counts at most 30 scans per address per hour: the 31st is stored, not counted', async () => {
    const { id } = await createFundraiser(server.api, asUser('limit-owner'));
    const office = '203.0.113.30';
    for (let i = 0; i < 31; i++) {
      await scan(id, scanner(0, { address: office, userAgent: `${PHONE} #${i}` }));
      later(1);
    }
    expect(await stats(id, 'limit-owner')).toMatchObject({ scans: 30, scanRequests: 31 });
    expect((await storedScans(id)).at(-1)).toMatchObject({ counted: false, bot: false });

    // Someone at another address still counts; the office again once its first scan is an hour old.
    await scan(id, scanner(0, { address: '203.0.113.31' }));
    later(60 - 31);
    await scan(id, scanner(0, { address: office, userAgent: `${PHONE} #31` }));
    expect(await stats(id, 'limit-owner')).toMatchObject({ scans: 32, scanRequests: 33 });
  });

  it('counts an IPv6 client by its /64: two of its addresses share the 30 an hour', async () => {
    const { id } = await createFundraiser(server.api, asUser('ipv6-owner'));
    for (let i = 0; i < 31; i++) {
      const address = i % 2 ? '2001:db8:5:64::1' : `2001:db8:5:64:${(i + 1).toString(16)}::99`;
      await scan(id, scanner(0, { address, userAgent: `${PHONE} #${i}` }));
      later(1);
    }
    expect(await stats(id, 'ipv6-owner')).toMatchObject({ scans: 30, scanRequests: 31 });
    const stored = await storedScans(id);
    expect(stored.at(-1)).toMatchObject({ counted: false, bot: false });
    expect(new Set(stored.map((event) => event.addressHash)).size).toBe(1);

    // The next /64 is another subscriber.
    await scan(id, scanner(0, { address: '2001:db8:5:65::1' }));
    expect(await stats(id, 'ipv6-owner')).toMatchObject({ scans: 31, scanRequests: 32 });
  });

  it('answers robots and link previewers 202, stores their requests, and never counts them', async () => {
    const { id } = await createFundraiser(server.api, asUser('robot-owner'));
    const robots = Object.values(ROBOTS);
    for (const [i, userAgent] of robots.entries()) await scan(id, scanner(2000 + i, { userAgent }));
    expect(await stats(id, 'robot-owner')).toMatchObject({ scans: 0, scanRequests: robots.length });
    const stored = await storedScans(id);
    expect(stored).toHaveLength(robots.length);
    expect(stored.every((event) => event.bot && !event.counted && event.visitorHash.length > 0)).toBe(true);
  });

  it("hashes with the day's salt, kept in the credentials store until the next day's replaces it", async () => {
    const { id } = await createFundraiser(server.api, asUser('salt-owner'));
    const salts = () => {
      const db = new Database(path.join(server.dataDir, 'credentials.sqlite'), { readonly: true });
      try {
        return db.prepare('SELECT day FROM scan_salts').all();
      } finally {
        db.close();
      }
    };
    now = new Date('2026-03-04T23:50:00.000Z');
    await scan(id, scanner(7));
    expect(salts()).toEqual([{ day: '2026-03-04' }]);
    // Twenty minutes later, past midnight: a new day, a new salt, the old one gone for good.
    later(20);
    await scan(id, scanner(7));
    expect(salts()).toEqual([{ day: '2026-03-05' }]);
    const [before, after] = await storedScans(id);
    expect(after!.visitorHash).not.toBe(before!.visitorHash);
    expect(after!.addressHash).not.toBe(before!.addressHash);
    // Nobody can tell the two are one person any more, the counting included (as Plausible counts).
    expect([before!.counted, after!.counted]).toEqual([true, true]);
  });

  it('stores no address and no user agent: not in any event, nor anywhere in the data folder', async () => {
    const { id } = await createFundraiser(server.api, asUser('privacy-owner'));
    const address = '203.0.113.77';
    const userAgent = `${PHONE} PrivacyProbe/77`;
    await scan(id, scanner(0, { address, userAgent }));
    await scan(id, scanner(0, { address: '2001:db8::77', userAgent }));
    const stored = await storedScans(id);
    expect(stored).toHaveLength(2);
    for (const event of stored) {
      expect(Object.keys(event).sort()).toEqual(
        ['addressHash', 'at', 'bot', 'counted', 'fundraiserId', 'scanId', 'visitorHash'].sort(),
      );
    }
    const files = await filesUnder(server.dataDir);
    const contents = await Promise.all(files.map((file) => readFile(file)));
    // The search does find what the scans did store (their fundraiser's id and visitor hash)…
    expect(contents.some((bytes) => bytes.includes(stored[0]!.visitorHash))).toBe(true);
    expect(contents.some((bytes) => bytes.includes(`"fundraiserId":"${id}"`))).toBe(true);
    // …and not who scanned.
    for (const [i, bytes] of contents.entries()) {
      for (const secret of [address, '2001:db8::77', 'PrivacyProbe']) {
        expect(bytes.includes(secret), `${secret} in ${path.basename(files[i]!)}`).toBe(false);
      }
    }
  });
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}
