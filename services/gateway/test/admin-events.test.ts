import { adminEventsPage } from '@qrshirt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminTestServer, startAdminServer } from './support/admin';

let server: AdminTestServer;
let head: number;
/** Before the events below were appended. */
let appendedFrom: number;
beforeAll(async () => {
  server = await startAdminServer();
  appendedFrom = Date.now();
  const [{ body: shirts }, { body: charities }] = await Promise.all([
    server.api('GET', '/api/shirts'),
    server.api('GET', '/api/charities'),
  ]);
  const join = (name: string, email: string) =>
    server.api('POST', '/api/waitlist', {
      body: { shirtId: shirts[0].id, selectedSize: shirts[0].sizes[0], selectedCharity: charities[0].id, name, email },
    });
  expect((await join('Jane Doe', 'jane@example.com')).status).toBe(201);
  expect((await join('Zoë Zed', 'zoe@example.org')).status).toBe(201);
  const photo = { photoURL: 'https://photos.example/mia/face.jpg' };
  expect((await server.api('PATCH', `/api/user/${server.memberUid}`, { ...server.member, body: photo })).status).toBe(
    200,
  );
  const analytics = await server.api('POST', '/api/analytics', {
    body: { events: [{ type: 'page_view', path: '/contact?from=jane@example.com', title: 'Contact' }] },
  });
  expect(analytics.status).toBe(202);
  head = await server.embedded.eventStore.headPosition();
});
afterAll(() => server.stop());

const browse = async (query: string) => {
  const answer = await server.api('GET', `/api/admin/events?${query}`, server.admin);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return adminEventsPage.parse(answer.body);
};

describe('GET /api/admin/events', () => {
  it('pages the whole log newest first, and oldest first when asked', async () => {
    const first = await browse('limit=3');
    expect(first.events.map((event) => event.position)).toEqual([head, head - 1, head - 2]);
    expect(first.next).toBe(head - 2);
    const second = await browse(`limit=3&after=${first.next}`);
    expect(second.events.map((event) => event.position)).toEqual([head - 3, head - 4, head - 5]);

    const oldest = await browse('order=oldest&limit=2');
    expect(oldest.events.map((event) => event.position)).toEqual([1, 2]);
    const following = await browse(`order=oldest&limit=2&after=${oldest.next}`);
    expect(following.events.map((event) => event.position)).toEqual([3, 4]);

    const last = await browse(`order=oldest&limit=50&after=${head - 1}`);
    expect(last.events.map((event) => event.position)).toEqual([head]);
    expect(last.next).toBeNull();
  });

  it('shows each event with its stream, type, position, time and metadata', async () => {
    const [event] = (await browse('type=WaitlistJoined&limit=1&reveal=true')).events;
    expect(event).toEqual({
      position: expect.any(Number),
      stream: expect.stringMatching(/^waitlist-/),
      // Each signup is its own stream: the shirt's second signup is the first event of its stream.
      revision: 0,
      id: expect.any(String),
      type: 'WaitlistJoined',
      time: expect.any(String),
      data: expect.objectContaining({ name: 'Zoë Zed', email: 'zoe@example.org' }),
      metadata: { schemaVersion: 1 },
    });
    // When it was recorded, on the real clock: during this file's set-up.
    expect(Date.parse(event!.time)).toBeGreaterThanOrEqual(appendedFrom);
    expect(Date.parse(event!.time)).toBeLessThanOrEqual(Date.now());
  });

  it('filters by stream prefix and by types', async () => {
    const waitlist = await browse('streamPrefix=waitlist-');
    expect(waitlist.events.map((event) => event.type)).toEqual(['WaitlistJoined', 'WaitlistJoined']);
    const users = await browse('streamPrefix=user-&type=UserRegistered');
    expect(users.events.map((event) => event.stream).sort()).toEqual(
      [`user-${server.adminUid}`, `user-${server.memberUid}`].sort(),
    );
    const two = await browse('type=UserRegistered,WaitlistJoined');
    expect(two.events.map((event) => event.type).sort()).toEqual([
      'UserRegistered',
      'UserRegistered',
      'WaitlistJoined',
      'WaitlistJoined',
    ]);
    expect((await browse('streamPrefix=nothing-')).events).toEqual([]);
  });

  it('filters by time: from is inclusive, to exclusive, a date stands for its whole day', async () => {
    // The newest event, not the head of the set-up: a reveal above added its audit record since.
    const [newest] = (await browse('limit=1')).events;
    const { time: at, position: last } = newest!;
    expect((await browse(`from=${encodeURIComponent(at)}&limit=500`)).events.map((event) => event.position)).toContain(
      last,
    );
    const before = await browse(`to=${encodeURIComponent(at)}&limit=500`);
    expect(before.events.map((event) => event.position)).not.toContain(last);
    const today = at.slice(0, 10);
    expect((await browse(`from=${today}&to=${today}&limit=1`)).events.map((event) => event.position)).toEqual([last]);
    const yesterday = new Date(Date.parse(today) - 86_400_000).toISOString().slice(0, 10);
    expect((await browse(`to=${yesterday}`)).events).toEqual([]);
  });

  it('masks names and emails, wherever an email appears, unless reveal=true', async () => {
    const masked = await browse('type=WaitlistJoined,UserRegistered,PageViewed&order=oldest');
    const byType = (type: string) => masked.events.filter((event) => event.type === type).map((event) => event.data);
    expect(byType('WaitlistJoined')).toEqual([
      expect.objectContaining({ name: 'J***', email: 'j***@example.com' }),
      expect.objectContaining({ name: 'Z***', email: 'z***@example.org' }),
    ]);
    expect(byType('UserRegistered')).toEqual([
      expect.objectContaining({ displayName: 'O***', email: 'o***@example.org' }),
      expect.objectContaining({ displayName: 'M***' }),
    ]);
    expect(byType('PageViewed')).toEqual([expect.objectContaining({ path: '/contact?from=j***@example.com' })]);
    const profiles = await browse('type=UserProfileUpdated');
    expect(profiles.events.map((event) => event.data)).toEqual([
      expect.objectContaining({ photoURL: 'https://photos.example/***' }),
    ]);
    expect(JSON.stringify([masked, profiles])).not.toMatch(/jane@|Jane|zoe@|Zoë|ops@|Olga|mia\/face/);
    expect(masked.revealed).toBe(false);

    const revealed = await browse('type=WaitlistJoined&order=oldest&reveal=true');
    expect(revealed.events.map((event) => event.data)).toEqual([
      expect.objectContaining({ name: 'Jane Doe', email: 'jane@example.com' }),
      expect.objectContaining({ name: 'Zoë Zed', email: 'zoe@example.org' }),
    ]);
    expect(revealed.revealed).toBe(true);
  });

  it('refuses filters it cannot read', async () => {
    for (const query of ['from=yesterday', 'limit=0', 'limit=501', 'order=sideways', 'after=-1', 'reveal=yes']) {
      const answer = await server.api('GET', `/api/admin/events?${query}`, server.admin);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error, query).toEqual(expect.any(String));
    }
    // The store's own streams, and on EventStoreDB its secondary indexes, are no operator's to browse.
    for (const prefix of ['$', '$all', '$idx-et-WaitlistJoined']) {
      const answer = await server.api(
        'GET',
        `/api/admin/events?streamPrefix=${encodeURIComponent(prefix)}`,
        server.admin,
      );
      expect(answer, prefix).toMatchObject({
        status: 400,
        body: { error: expect.stringMatching(/must not start with \$/) },
      });
    }
  });
});
