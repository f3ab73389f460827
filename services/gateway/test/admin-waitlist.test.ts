import { adminWaitlistEntriesPage, adminWaitlistStats } from '@qrshirt/contracts';
import type { EventStore } from '@qrshirt/core';
import { openEventStore } from '@qrshirt/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAIT_MS } from '@qrshirt/test-support';
import { type AdminTestServer, startAdminServer } from './support/admin';

let server: AdminTestServer;
let shirts: { id: string; name: string; sizes: string[] }[];
let charities: { id: string; name: string }[];
const joinedAt = new Date('2025-03-01T10:00:00.000Z');
let now = joinedAt.getTime();

/** The reads of the whole log (by type, prefix or position) made through the gateway's event store. */
const logReads: string[] = [];
const countingLogReads = (store: EventStore): EventStore => ({
  ...store,
  positionUnit: store.positionUnit,
  readAll: (options) => {
    logReads.push('readAll');
    return store.readAll(options);
  },
  readFiltered: (options) => {
    logReads.push('readFiltered');
    return store.readFiltered(options);
  },
});

beforeAll(async () => {
  server = await startAdminServer({
    clock: () => new Date(now),
    eventStore: (config) => countingLogReads(openEventStore(config)),
  });
  shirts = (await server.api('GET', '/api/shirts')).body;
  charities = (await server.api('GET', '/api/charities')).body;
  const signups = [
    { shirt: 0, size: 0, charity: 0, name: 'Ada Lovelace', email: 'ada@example.com' },
    { shirt: 1, size: 0, charity: 1, name: 'Doe, "JJ" Jr.', email: 'jj@example.com' },
    { shirt: 0, size: 1, charity: 0, name: '=HYPERLINK("https://evil.example")', email: 'eve@example.com' },
    { shirt: 0, size: 0, charity: 1, name: 'Line one\nLine two', email: 'lines@example.com' },
  ];
  for (const signup of signups) {
    now += 60_000;
    const shirt = shirts[signup.shirt]!;
    const answer = await server.api('POST', '/api/waitlist', {
      body: {
        shirtId: shirt.id,
        selectedSize: shirt.sizes[signup.size],
        selectedCharity: charities[signup.charity]!.id,
        name: signup.name,
        email: signup.email,
      },
    });
    expect(answer.status).toBe(201);
  }
  await server.embedded.projectionsCaughtUp(WAIT_MS);
});
afterAll(() => server.stop());

const minute = (n: number) => new Date(joinedAt.getTime() + n * 60_000).toISOString();

describe('GET /api/admin/waitlist', () => {
  it('counts per shirt, size and charity, with their names', async () => {
    const { status, body } = await server.api('GET', '/api/admin/waitlist', server.admin);
    expect(status).toBe(200);
    const [first, second] = shirts;
    expect(adminWaitlistStats.parse(body)).toMatchObject({
      total: 4,
      byShirt: { [first!.id]: 3, [second!.id]: 1 },
      byCharity: { [charities[0]!.id]: 2, [charities[1]!.id]: 2 },
      byShirtAndSize: {
        [first!.id]: { [first!.sizes[0]!]: 2, [first!.sizes[1]!]: 1 },
        [second!.id]: { [second!.sizes[0]!]: 1 },
      },
    });
    expect(body.shirtNames[first!.id]).toBe(first!.name);
    expect(body.charityNames[charities[1]!.id]).toBe(charities[1]!.name);
  });
});

describe('GET /api/admin/waitlist/entries', () => {
  it('pages the entries with names and emails, newest first', async () => {
    const first = await server.api('GET', '/api/admin/waitlist/entries?limit=3', server.admin);
    expect(first.status).toBe(200);
    const page = adminWaitlistEntriesPage.parse(first.body);
    expect(page.entries.map((entry) => entry.email)).toEqual([
      'lines@example.com',
      'eve@example.com',
      'jj@example.com',
    ]);
    expect(page.entries[2]).toEqual({
      id: expect.any(String),
      name: 'Doe, "JJ" Jr.',
      email: 'jj@example.com',
      size: shirts[1]!.sizes[0],
      charityId: charities[1]!.id,
      charityName: charities[1]!.name,
      shirtId: shirts[1]!.id,
      shirtName: shirts[1]!.name,
      joinedAt: minute(2),
      status: 'unconfirmed',
      fundraiserId: null,
    });
    expect(page.next).toEqual(expect.any(Number));

    const rest = await server.api('GET', `/api/admin/waitlist/entries?limit=3&after=${page.next}`, server.admin);
    expect(rest.body.entries.map((entry: { name: string }) => entry.name)).toEqual(['Ada Lovelace']);
    expect(rest.body.next).toBeNull();
  });

  it('reads the entries, their CSV and a fulfilment from the read model, never the log', async () => {
    logReads.length = 0;
    const page = await server.api('GET', '/api/admin/waitlist/entries?limit=2', server.admin);
    await server.api('GET', `/api/admin/waitlist/entries?limit=2&after=${page.body.next}`, server.admin);
    const csv = await fetch(`${server.url}/api/admin/waitlist/entries.csv`, {
      headers: { authorization: `Bearer ${server.admin.token}` },
    });
    expect((await csv.text()).split('\r\n')).toHaveLength(6);
    // Found in the read model, refused as unconfirmed: nothing fulfilled, nothing read of the log.
    const fulfil = await server.api('POST', `/api/admin/waitlist/entries/${page.body.entries[0].id}/fulfil`, {
      ...server.admin,
      body: undefined,
    });
    expect(fulfil.status).toBe(409);
    expect(logReads).toEqual([]);
  });

  it('refuses an after that no page gave', async () => {
    const answer = await server.api('GET', '/api/admin/waitlist/entries?after=1', server.admin);
    expect(answer).toMatchObject({ status: 400, body: { error: 'after must be the next of a previous page' } });
  });

  it('refuses a limit out of range', async () => {
    const answer = await server.api('GET', '/api/admin/waitlist/entries?limit=5000', server.admin);
    expect(answer.status).toBe(400);
  });
});

describe('GET /api/admin/waitlist/entries.csv', () => {
  it('downloads every entry as CSV, quoted where needed and safe to open in a spreadsheet', async () => {
    const answer = await fetch(`${server.url}/api/admin/waitlist/entries.csv`, {
      headers: { authorization: `Bearer ${server.admin.token}` },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="waitlist-2025-03-01.csv"');
    const bytes = Buffer.from(await answer.arrayBuffer());
    // A byte-order mark first, so spreadsheets read the names as UTF-8.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    const [shirt0, shirt1] = [shirts[0]!, shirts[1]!];
    const [charity0, charity1] = [charities[0]!, charities[1]!];
    expect(text).toBe(
      'joinedAt,name,email,size,shirtId,shirtName,charityId,charityName,status,fundraiserId\r\n' +
        `${minute(4)},"Line one\nLine two",lines@example.com,${shirt0.sizes[0]},${shirt0.id},${shirt0.name},${charity1.id},${charity1.name},unconfirmed,\r\n` +
        `${minute(3)},"'=HYPERLINK(""https://evil.example"")",eve@example.com,${shirt0.sizes[1]},${shirt0.id},${shirt0.name},${charity0.id},${charity0.name},unconfirmed,\r\n` +
        `${minute(2)},"Doe, ""JJ"" Jr.",jj@example.com,${shirt1.sizes[0]},${shirt1.id},${shirt1.name},${charity1.id},${charity1.name},unconfirmed,\r\n` +
        `${minute(1)},Ada Lovelace,ada@example.com,${shirt0.sizes[0]},${shirt0.id},${shirt0.name},${charity0.id},${charity0.name},unconfirmed,\r\n`,
    );
  });
});
