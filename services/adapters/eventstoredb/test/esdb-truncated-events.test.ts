import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  COPY_OF,
  createClearDataSealer,
  migrateLogByCopies,
  overviewKeys,
  overviewProjector,
  type EventStore,
  type StoredEvent,
} from '@qrshirt/core';
import { createMemoryReadModelStore, rebuildProjection } from '@qrshirt/projections';
import { waitFor } from '@qrshirt/test-support';
import { createEventStoreDbEventStore } from '../src/esdb-event-store';
import { openEventStoreDbCopyingLog } from '../src/esdb-log-copies';
import { fakeEventStoreDb } from './fake-kurrentdb';

// After `migrate-personal-data` on EventStoreDB each person's stream holds sealed copies and a
// `$tb` past the clear originals. KurrentDB 25.1 hides those from reads of the stream at once,
// but $all returns them until a scavenge: this fake server, like it, never scavenges.

const PEOPLE = [
  { name: 'Clara Voss', email: 'clara.voss@post.example' },
  { name: 'Jonas Berg', email: 'jonas.berg@post.example' },
  { name: 'Ada Lind', email: 'ada.lind@post.example' },
];
const CLEAR = /Clara Voss|clara\.voss|Jonas Berg|jonas\.berg|Ada Lind|ada\.lind/;

/** Accounts registered before personal data was sealed: names and emails in clear. */
async function registerInClear(store: EventStore): Promise<void> {
  const at = '2024-06-01T09:00:00.000Z';
  for (const person of PEOPLE) {
    const userId = randomUUID();
    await store.appendToStream(`user-${userId}`, [
      {
        type: 'UserRegistered',
        data: { userId, email: person.email, displayName: person.name, photoURL: null, method: 'password', at },
      },
      { type: 'DailySummarySet', data: { userId, enabled: true, via: 'profile', at } },
    ]);
  }
}

async function migratePersonalData(connectionString: string) {
  const keys = new Map<string, Buffer | null>();
  const sealer = createClearDataSealer({
    keys: {
      async personalDataKey(subject, candidate) {
        if (!keys.has(subject)) keys.set(subject, candidate);
        return keys.get(subject) ?? null;
      },
      personalDataKeys: async () => new Map(),
      erasePersonalDataKey: async () => true,
    },
  });
  const log = openEventStoreDbCopyingLog({ connectionString });
  try {
    return await migrateLogByCopies({ log, sealer });
  } finally {
    await log.close();
  }
}

/** The admin overview's count of accounts, from a rebuild of its projection into fresh read models. */
async function accountsAfterRebuild(eventStore: EventStore): Promise<number> {
  const models = createMemoryReadModelStore();
  await rebuildProjection({
    eventStore,
    store: models,
    projector: overviewProjector,
    log: { warn() {}, error() {} },
  });
  const totals = await models.projection(overviewProjector.name).hgetall(overviewKeys.totals);
  return Number(totals.users ?? 0);
}

describe('events a stream’s $tb hides, still in $all until a scavenge', () => {
  let fake: Awaited<ReturnType<typeof fakeEventStoreDb>> | undefined;
  afterEach(() => fake?.server.forceShutdown());

  it('a rebuild after migrate-personal-data counts each account once', async () => {
    fake = await fakeEventStoreDb([]);
    const store = createEventStoreDbEventStore({ connectionString: fake.url });
    await registerInClear(store);
    expect(await accountsAfterRebuild(store)).toBe(3);

    expect(await migratePersonalData(fake.url)).toMatchObject({ rewrittenStreams: 3, awaitingScavenge: 3 });
    // Not scavenged: the server still holds every original beside its copy.
    expect(fake.log().filter((event) => event.type === 'UserRegistered')).toHaveLength(6);

    expect(await accountsAfterRebuild(store)).toBe(3);
    const registered = await store.readAll({ eventTypes: ['UserRegistered'] });
    expect(registered.map((event) => typeof event.metadata[COPY_OF])).toEqual(['string', 'string', 'string']);
    // Each stream's metadata is read once for the whole read.
    const metadataReads = fake.streamReads().filter((name) => name.startsWith('$$'));
    const before = metadataReads.length;
    await store.readAll();
    const during = fake
      .streamReads()
      .filter((name) => name.startsWith('$$'))
      .slice(before);
    expect(during.toSorted()).toEqual(registered.map((event) => `$$${event.streamName}`).toSorted());
    // The migration itself still sees the originals: a rerun reports what awaits the scavenge.
    expect(await migratePersonalData(fake.url)).toMatchObject({ rewrittenStreams: 0, awaitingScavenge: 3 });
    await store.close();
  });

  it('the event browser, names revealed, shows the sealed copies and no clear original', async () => {
    fake = await fakeEventStoreDb([]);
    const store = createEventStoreDbEventStore({ connectionString: fake.url });
    await registerInClear(store);
    await migratePersonalData(fake.url);
    expect(JSON.stringify(fake.log())).toMatch(CLEAR);

    for (const direction of ['forwards', 'backwards'] as const) {
      // What the browser with reveal on answers: the events as stored, nothing masked.
      const { events } = await store.readFiltered({ direction, maxCount: 50 });
      expect(JSON.stringify(events)).not.toMatch(CLEAR);
      const copies = events.filter((event) => event.type === 'UserRegistered');
      expect(copies.map((event) => typeof event.metadata[COPY_OF])).toEqual(['string', 'string', 'string']);
      const { events: typed } = await store.readFiltered({
        direction,
        streamPrefix: 'user-',
        eventTypes: ['UserRegistered'],
        maxCount: 2,
      });
      expect(typed.map((event) => event.id)).toEqual(copies.slice(0, 2).map((event) => event.id));
    }
    await store.close();
  });

  it('a subscription catching up hands on the copies only', async () => {
    fake = await fakeEventStoreDb([]);
    const store = createEventStoreDbEventStore({ connectionString: fake.url });
    await registerInClear(store);
    await migratePersonalData(fake.url);

    const handed: StoredEvent[] = [];
    const subscription = store.subscribe({
      eventTypes: ['UserRegistered', 'DailySummarySet'],
      onEvents: (events) => {
        handed.push(...events);
      },
    });
    const end = fake.log().at(-1)!.position;
    // The fake sends the whole log at once; the last events are the copies of the last stream.
    await waitFor('the copies of the last stream handed on', () =>
      handed.some((event) => event.globalPosition >= end - 187),
    );
    await subscription.stop();
    expect(handed).toHaveLength(6);
    expect(handed.every((event) => typeof event.metadata[COPY_OF] === 'string')).toBe(true);
    expect(JSON.stringify(handed)).not.toMatch(CLEAR);
    await store.close();
  });
});
