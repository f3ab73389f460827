import { type AdminAuditEntry, adminAuditPage } from '@qrshirt/contracts';
import type { EventStore, StoredEvent } from '@qrshirt/core';
import { openEventStore } from '@qrshirt/runtime';
import { as, type RequestOptions, signUp, WAIT_MS } from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE, testClock } from './support/accounts';
import { type AdminTestServer, startAdminServer } from './support/admin';

/*
 * The audit trail over HTTP, on the SQLite files `npm start` uses: every reveal of names and
 * emails, every download and every erasure an operator makes is in the log (who, what, when,
 * never the data shown) before the data is answered, and listed at GET /api/admin/audit.
 */
const JANE = { name: 'Jane Doe', email: 'jane@example.com' };
const time = testClock(Date.parse('2026-02-10T23:50:00.000Z'));
let server: AdminTestServer;

beforeAll(async () => {
  server = await startAdminServer({ clock: time.clock });
  const [{ body: shirts }, { body: charities }] = await Promise.all([
    server.api('GET', '/api/shirts'),
    server.api('GET', '/api/charities'),
  ]);
  const joined = await server.api('POST', '/api/waitlist', {
    body: { shirtId: shirts[0].id, selectedSize: shirts[0].sizes[0], selectedCharity: charities[0].id, ...JANE },
  });
  expect(joined.status).toBe(201);
});
afterAll(() => server?.stop());

/** The audit records in the log, oldest first. */
async function recorded(): Promise<StoredEvent[]> {
  return server.embedded.eventStore.readAll({ eventTypes: ['AdminDataAccessed'] });
}

/** What one request added to the audit records. */
async function recordedBy(request: () => Promise<unknown>): Promise<StoredEvent[]> {
  const before = (await recorded()).length;
  await request();
  return (await recorded()).slice(before);
}

async function auditList(query = '', options: RequestOptions = server.admin) {
  await server.embedded.projectionsCaughtUp(WAIT_MS);
  const answer = await server.api('GET', `/api/admin/audit${query}`, options);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return adminAuditPage.parse(answer.body);
}

/** The record holds the operator, the action and the request's parameters, and nobody's name or email. */
function expectRecord(event: StoredEvent | undefined, action: string, subject: Record<string, string>) {
  expect(event).toMatchObject({
    streamName: `admin-audit-${time.clock().toISOString().slice(0, 10)}`,
    type: 'AdminDataAccessed',
    data: { adminId: server.adminUid, action, subject, at: time.clock().toISOString() },
  });
  expect(JSON.stringify(event)).not.toMatch(/jane|Jane|Doe|ops@example|Olga|Mia/i);
}

describe('the audit trail', () => {
  it('records a reveal in the event browser, with its filters, before the events are read', async () => {
    time.advance(MINUTE);
    let answer: Awaited<ReturnType<typeof server.api>> | undefined;
    const [event, ...more] = await recordedBy(async () => {
      answer = await server.api('GET', '/api/admin/events?reveal=true&limit=2', server.admin);
    });
    expect(more).toEqual([]);
    expectRecord(event, 'reveal-events', { limit: '2', order: 'newest' });
    // Recorded before the log was read: the newest event the reveal shows is its own record.
    expect(answer).toMatchObject({ status: 200, body: { revealed: true } });
    expect(answer!.body.events[0]).toMatchObject({ id: event!.id, type: 'AdminDataAccessed' });

    const filtered = await recordedBy(async () => {
      const revealed = await server.api(
        'GET',
        '/api/admin/events?reveal=true&type=WaitlistJoined,UserRegistered&streamPrefix=waitlist-&from=2026-02-10&order=oldest',
        server.admin,
      );
      expect(JSON.stringify(revealed.body)).toContain(JANE.email);
    });
    expectRecord(filtered[0], 'reveal-events', {
      streamPrefix: 'waitlist-',
      type: 'WaitlistJoined,UserRegistered',
      from: '2026-02-10',
      limit: '50',
      order: 'oldest',
    });

    const [listed] = (await auditList()).entries;
    expect(listed).toEqual({
      position: filtered[0]!.globalPosition,
      at: time.clock().toISOString(),
      adminId: server.adminUid,
      action: 'reveal-events',
      subject: (filtered[0]!.data as { subject: Record<string, string> }).subject,
    } satisfies AdminAuditEntry);
  });

  it('keeps an address typed into a filter out of the record', async () => {
    const [event] = await recordedBy(async () => {
      const answer = await server.api(
        'GET',
        '/api/admin/events?reveal=true&streamPrefix=jane.doe@example.com',
        server.admin,
      );
      expect(answer.status).toBe(200);
    });
    expect(JSON.stringify(event!.data)).not.toContain('jane.doe@example.com');
    expectRecord(event, 'reveal-events', { streamPrefix: 'j***@example.com', limit: '50', order: 'newest' });
  });

  it('records nothing for the masked browse', async () => {
    const added = await recordedBy(async () => {
      const masked = await server.api('GET', '/api/admin/events?type=WaitlistJoined', server.admin);
      expect(masked).toMatchObject({ status: 200, body: { revealed: false } });
      expect(JSON.stringify(masked.body)).not.toContain(JANE.email);
      const explicit = await server.api('GET', '/api/admin/events?reveal=false', server.admin);
      expect(explicit.status).toBe(200);
    });
    expect(added).toEqual([]);
  });

  it('records the waitlist entries list, the CSV download and the replay export', async () => {
    time.advance(MINUTE);
    const [list] = await recordedBy(async () => {
      const answer = await server.api('GET', '/api/admin/waitlist/entries?limit=10', server.admin);
      expect(answer.body.entries[0]).toMatchObject(JANE);
    });
    expectRecord(list, 'list-waitlist-entries', { limit: '10' });

    const [csv] = await recordedBy(async () => {
      const download = await server.api('GET', '/api/admin/waitlist/entries.csv', server.admin);
      expect(download.status).toBe(200);
      expect(download.body).toContain(`${JANE.name},${JANE.email}`);
    });
    expectRecord(csv, 'download-waitlist-csv', {});

    const [replay] = await recordedBy(async () => {
      const download = await server.api(
        'GET',
        '/api/admin/replay?groupBy=charity&format=ndjson&from=2026-01-01',
        server.admin,
      );
      expect(download.status).toBe(200);
    });
    expectRecord(replay, 'download-replay', { groupBy: 'charity', format: 'ndjson', from: '2026-01-01' });

    expect((await auditList('?limit=3')).entries.map((entry) => [entry.action, entry.subject])).toEqual([
      ['download-replay', { groupBy: 'charity', format: 'ndjson', from: '2026-01-01' }],
      ['download-waitlist-csv', {}],
      ['list-waitlist-entries', { limit: '10' }],
    ]);
  });

  it("lists an operator's erasure from its closing event alone, and not a person's own closing", async () => {
    time.advance(MINUTE);
    const erased = await signUp(server.api, { displayName: 'Erin Erased' });
    const leaving = await signUp(server.api, { displayName: 'Lee Leaving' });
    const added = await recordedBy(async () => {
      expect((await server.api('DELETE', `/api/admin/users/${erased.user.uid}`, server.admin)).status).toBe(204);
      const own = await server.api('DELETE', `/api/user/${leaving.user.uid}`, {
        ...as(leaving),
        body: { password: 'correct horse' },
      });
      expect(own.status).toBe(204);
    });
    // The closing event names the operator already: no second record of the same fact.
    expect(added).toEqual([]);
    const closed = (await server.embedded.eventStore.readStream(`user-${erased.user.uid}`)).at(-1);
    expect(closed).toMatchObject({ type: 'UserAccountClosed', data: { by: 'admin', adminId: server.adminUid } });

    const [newest, before] = (await auditList()).entries;
    expect(newest).toEqual({
      position: closed!.globalPosition,
      at: time.clock().toISOString(),
      adminId: server.adminUid,
      action: 'erase-user',
      subject: { userId: erased.user.uid },
    } satisfies AdminAuditEntry);
    expect(before?.action).toBe('download-replay');
    expect(JSON.stringify(await auditList('?limit=500'))).not.toContain(leaving.user.uid);
  });

  it('pages newest first, across days, with next as the last position shown', async () => {
    // Past midnight: the next records go to the next day's stream.
    time.advance(10 * MINUTE);
    const tomorrow = time.clock().toISOString().slice(0, 10);
    expect(tomorrow).toBe('2026-02-11');
    const [first] = await recordedBy(() => server.api('GET', '/api/admin/waitlist/entries', server.admin));
    expect(first?.streamName).toBe(`admin-audit-${tomorrow}`);
    time.advance(MINUTE);
    await server.api('GET', '/api/admin/waitlist/entries.csv', server.admin);

    const all = (await auditList('?limit=500')).entries;
    expect(all).toHaveLength(9);
    expect(all.map((entry) => entry.position)).toEqual(all.map((entry) => entry.position).sort((a, b) => b - a));
    expect(all.map((entry) => entry.at.slice(0, 10))).toEqual([
      tomorrow,
      tomorrow,
      ...Array.from({ length: 7 }, () => '2026-02-10'),
    ]);

    const seen: AdminAuditEntry[] = [];
    let after: number | null = null;
    let pages = 0;
    do {
      const page: Awaited<ReturnType<typeof auditList>> = await auditList(
        `?limit=2${after === null ? '' : `&after=${after}`}`,
      );
      seen.push(...page.entries);
      after = page.next;
      pages += 1;
      if (after !== null) expect(after).toBe(page.entries.at(-1)!.position);
    } while (after !== null);
    expect(seen).toEqual(all);
    expect(pages).toBe(5);

    const lastTwo = await auditList(`?limit=2&after=${all.at(-3)!.position}`);
    expect(lastTwo).toEqual({ entries: all.slice(-2), next: null });
  });

  it('is for admins only, and refuses a cursor it never gave', async () => {
    const refused = await recordedBy(async () => {
      for (const path of [
        '/api/admin/audit',
        '/api/admin/events?reveal=true',
        '/api/admin/waitlist/entries',
        '/api/admin/waitlist/entries.csv',
        '/api/admin/replay',
      ]) {
        expect(await server.api('GET', path, server.member), path).toMatchObject({
          status: 403,
          body: { error: 'Only administrators can do this' },
        });
        expect((await server.api('GET', path, server.anonymous)).status, path).toBe(403);
        expect((await server.api('GET', path)).status, path).toBe(401);
      }
    });
    expect(refused).toEqual([]);

    for (const query of ['?after=999999', '?after=0', '?limit=0', '?limit=501']) {
      const answer = await server.api('GET', `/api/admin/audit${query}`, server.admin);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error, query).toEqual(expect.any(String));
    }
  });
});

describe('when the audit trail cannot record', () => {
  let refusing = false;
  let down: AdminTestServer;

  /** The SQLite store, refusing the audit's appends while `refusing` (a full disk, a lost server). */
  const refusingAudit = (store: EventStore): EventStore => ({
    ...store,
    positionUnit: store.positionUnit,
    appendToStream: (stream, events, options) =>
      refusing && stream.startsWith('admin-audit-')
        ? Promise.reject(new Error('SQLITE_FULL: database or disk is full'))
        : store.appendToStream(stream, events, options),
  });

  beforeAll(async () => {
    down = await startAdminServer({ eventStore: (config) => refusingAudit(openEventStore(config)) });
    const [{ body: shirts }, { body: charities }] = await Promise.all([
      down.api('GET', '/api/shirts'),
      down.api('GET', '/api/charities'),
    ]);
    const joined = await down.api('POST', '/api/waitlist', {
      body: { shirtId: shirts[0].id, selectedSize: shirts[0].sizes[0], selectedCharity: charities[0].id, ...JANE },
    });
    expect(joined.status).toBe(201);
  });
  afterAll(() => down?.stop());

  it('shows and downloads nothing (503), while the masked browse still works', async () => {
    refusing = true;
    for (const path of [
      '/api/admin/events?reveal=true',
      '/api/admin/waitlist/entries',
      '/api/admin/waitlist/entries.csv',
      '/api/admin/replay',
    ]) {
      const answer = await down.api('GET', path, down.admin);
      expect(answer.status, path).toBe(503);
      expect(answer.body, path).toEqual({
        error: 'The audit trail cannot record this right now, so nothing is shown. Please try again in a moment.',
      });
      expect(JSON.stringify(answer.body), path).not.toContain(JANE.email);
    }
    const masked = await down.api('GET', '/api/admin/events', down.admin);
    expect(masked.status).toBe(200);
    expect(JSON.stringify(masked.body)).not.toContain(JANE.email);

    refusing = false;
    const revealed = await down.api('GET', '/api/admin/events?reveal=true', down.admin);
    expect(revealed.status).toBe(200);
    expect(JSON.stringify(revealed.body)).toContain(JANE.email);
    await down.embedded.projectionsCaughtUp(WAIT_MS);
    const listed = adminAuditPage.parse((await down.api('GET', '/api/admin/audit', down.admin)).body);
    expect(listed.entries.map((entry) => entry.action)).toEqual(['reveal-events']);
  });
});
