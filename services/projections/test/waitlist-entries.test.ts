import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DomainEvent, waitlistDataSubject } from '@qrshirt/contracts';
import {
  type PersonalData,
  type ReadModelStore,
  createPersonalData,
  createWaitlistEntriesQueries,
  waitlistEntriesProjector,
} from '@qrshirt/core';
import { createSqliteCredentialsStore } from '@qrshirt/sqlite';
import { describeWithRedis } from '@qrshirt/test-support/vitest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type BackendKind,
  type ReadModelBackend,
  memoryBackend,
  redisBackend,
  sqliteBackend,
} from './support/read-model-backends';

const D1 = '2026-03-01';
const D2 = '2026-03-02';

const joined = (entryId: string, day: string, size = 'M', confirmTokenHash: string | null = 'hash') => ({
  type: 'WaitlistJoined' as const,
  data: {
    entryId,
    shirtId: 'scan-me',
    name: `Person ${entryId}`,
    email: `${entryId}@example.org`,
    size,
    charityId: 'c1',
    ...(confirmTokenHash && { confirmTokenHash }),
    at: `${day}T10:00:00.000Z`,
  },
});
const at = `${D2}T12:00:00.000Z`;

/** A waitlist's life as the log holds it: names and emails sealed under each entry's key. */
async function history(personalData: PersonalData): Promise<DomainEvent[]> {
  const events: DomainEvent[] = [
    joined('e1', D1),
    joined('e2', D1, 'L'),
    // Joined before signups were confirmed: waiting without a confirmation.
    joined('e3', D1, 'M', null),
    joined('e4', D2),
    joined('e5', D2),
    { type: 'WaitlistEntryConfirmed', data: { entryId: 'e1', at } },
    { type: 'WaitlistEntryConfirmed', data: { entryId: 'e4', at } },
    { type: 'WaitlistEntryConfirmed', data: { entryId: 'e5', at } },
    {
      type: 'WaitlistEntryFulfilled',
      data: {
        entryId: 'e4',
        fundraiserId: 'f4',
        shirtId: 'scan-me',
        size: 'M',
        charityId: 'c1',
        name: 'Person e4',
        email: 'e4@example.org',
        claimTokenHash: 'claim',
        claimExpiresAt: at,
        at,
      },
    },
    { type: 'FundraiserClaimed', data: { fundraiserId: 'f4', userId: 'u4', entryId: 'e4', at } },
    // Fulfilled, then removed by its person: the list still names its fundraiser.
    {
      type: 'WaitlistEntryFulfilled',
      data: {
        entryId: 'e5',
        fundraiserId: 'f5',
        shirtId: 'scan-me',
        size: 'M',
        charityId: 'c1',
        name: 'Person e5',
        email: 'e5@example.org',
        claimTokenHash: 'claim',
        claimExpiresAt: at,
        at,
      },
    },
    { type: 'WaitlistEntryRemoved', data: { entryId: 'e5', at } },
  ];
  return Promise.all(
    events.map(
      async (event) => ({ ...event, data: await personalData.sealEventData(event.type, event.data) }) as DomainEvent,
    ),
  );
}

/** Commits each event's ops with its position, as the runner does a batch at a time. */
async function project(store: ReadModelStore, events: readonly DomainEvent[]): Promise<void> {
  const projection = store.projection(waitlistEntriesProjector.name);
  let checkpoint: number | null = null;
  for (const [index, event] of events.entries()) {
    const position = (index + 1) * 100;
    const ops = waitlistEntriesProjector.project(event, { globalPosition: position, recordedAt: new Date(at) });
    expect(await projection.commit(checkpoint, position, ops)).toBe(true);
    checkpoint = position;
  }
}

function describeWaitlistEntries(kind: BackendKind): void {
  describe(`the waitlist entries on the ${kind.name} read-model store`, () => {
    let backend: ReadModelBackend;
    let keysDir: string;
    let credentials: ReturnType<typeof createSqliteCredentialsStore>;
    let personalData: PersonalData;
    let entries: ReturnType<typeof createWaitlistEntriesQueries>;

    beforeEach(async () => {
      // Each test's people have keys of their own, in the credentials store's real file.
      keysDir = mkdtempSync(join(tmpdir(), 'qrshirt-waitlist-keys-'));
      credentials = createSqliteCredentialsStore({ path: join(keysDir, 'credentials.sqlite') });
      personalData = createPersonalData({ keys: credentials });
      backend = kind.open();
      const store = backend.connect();
      await project(store, await history(personalData));
      entries = createWaitlistEntriesQueries(store, { reveal: (values) => personalData.reveal(values) });
    });
    afterEach(async () => {
      await backend.close();
      await credentials.close();
      rmSync(keysDir, { recursive: true, force: true });
    });

    it('pages the entries newest first, with names, emails and how far each came', async () => {
      const first = await entries.page({ limit: 3 });
      expect(first.entries.map(({ entry, status, fundraiserId }) => [entry.entryId, status, fundraiserId])).toEqual([
        ['e5', 'removed', 'f5'],
        ['e4', 'claimed', 'f4'],
        ['e3', 'waiting', null],
      ]);
      expect(first.entries[1]!.entry).toMatchObject({ name: 'Person e4', email: 'e4@example.org', size: 'M' });
      expect(first.next).toBe(first.entries[2]!.position);

      const second = await entries.page({ after: first.next!, limit: 3 });
      expect(second.entries.map(({ entry, status }) => [entry.entryId, status])).toEqual([
        ['e2', 'unconfirmed'],
        ['e1', 'waiting'],
      ]);
      expect(second.next).toBeNull();
      // A page that ends exactly with the last entry says there is no more.
      expect((await entries.page({ limit: 5 })).next).toBeNull();
      await expect(entries.page({ after: 12_345, limit: 3 })).rejects.toThrow(/after must be the next/);
    });

    it('finds an entry by id, and a shirt’s entries in a size oldest first', async () => {
      expect(await entries.entry('e2')).toMatchObject({ entry: { entryId: 'e2', size: 'L' }, status: 'unconfirmed' });
      expect(await entries.entry('nobody')).toBeNull();
      const sized = await entries.ofShirtAndSize('scan-me', 'M');
      expect(sized.map(({ entry }) => entry.entryId)).toEqual(['e1', 'e3', 'e4', 'e5']);
      expect(await entries.ofShirtAndSize('scan-me', 'XL')).toEqual([]);
    });

    it('shows an erased person’s entry with no name or email, as their key is gone', async () => {
      await personalData.erase(waitlistDataSubject('e1'));
      const listed = (await entries.page({ limit: 10 })).entries.find(({ entry }) => entry.entryId === 'e1');
      expect(listed?.entry).toMatchObject({ name: null, email: null, size: 'M' });
      expect(JSON.stringify(await entries.page({ limit: 10 }))).not.toContain('e1@example.org');
    });
  });
}

describeWaitlistEntries(memoryBackend);
describeWaitlistEntries(sqliteBackend);
describeWithRedis('the waitlist entries against a real Redis', (redis) => describeWaitlistEntries(redisBackend(redis)));
