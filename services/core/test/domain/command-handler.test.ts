import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { charityDecider, charityStreamName } from '../../src/charities/charity-decider';
import { type CommandHandler, createCommandHandler } from '../../src/event-sourcing/command-handler';
import { DomainError } from '../../src/event-sourcing/decider';
import {
  type CreateFundraiser,
  fundraiserDecider,
  fundraiserStreamName,
} from '../../src/fundraisers/fundraiser-decider';
import { userDecider, userStreamName } from '../../src/users/user-decider';
import { ConcurrencyError, type EventStore } from '../../src/event-sourcing/event-store';
import { createInMemoryEventStore } from '@qrshirt/core';
import { T0, T1, charity, shirt } from './fixtures';

const stream = fundraiserStreamName('f-1');
const create: CreateFundraiser = {
  type: 'CreateFundraiser',
  fundraiserId: 'f-1',
  userId: 'user-1',
  charity,
  shirt,
  at: T0,
};
const donate = (donationId: string, amount: unknown, idempotencyKey: string | null = null) =>
  ({ type: 'RecordDonation', donationId, amount, idempotencyKey, source: 'widget', at: T1 }) as const;

/** The real store, counting the appends it refused for a stale revision. */
function countingConflicts(store: EventStore): { store: EventStore; conflicts: () => number } {
  let conflicts = 0;
  return {
    store: {
      ...store,
      async appendToStream(...args) {
        try {
          return await store.appendToStream(...args);
        } catch (error) {
          if (error instanceof ConcurrencyError) conflicts += 1;
          throw error;
        }
      },
    },
    conflicts: () => conflicts,
  };
}

let eventStore: EventStore;
let commands: CommandHandler;

beforeEach(() => {
  eventStore = createInMemoryEventStore();
  commands = createCommandHandler({ eventStore });
});

afterEach(async () => {
  await eventStore.close();
});

describe('command handler', () => {
  it('appends the decided events to a new stream, stamped with their schema version', async () => {
    const result = await commands.handle(stream, fundraiserDecider, () => create);

    expect(result.events.map((event) => event.type)).toEqual(['FundraiserCreated']);
    expect(result.state).toMatchObject({ fundraiserId: 'f-1', name: 'Scan Me Maybe', donationCount: 0 });
    expect(result.nextExpectedRevision).toBe(0);
    const stored = await eventStore.readStream(stream);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ type: 'FundraiserCreated', metadata: { schemaVersion: 1 } });
    expect(result.lastGlobalPosition).toBe(stored[0]!.globalPosition);
  });

  it('decides on the folded stream and appends after its last revision', async () => {
    await commands.handle(stream, fundraiserDecider, () => create);
    const result = await commands.handle(stream, fundraiserDecider, () => donate('d-1', '12.50'));

    expect(result.nextExpectedRevision).toBe(1);
    expect(result.state).toMatchObject({ donationCount: 1, raisedCents: 1250 });
    expect(await commands.loadState(stream, fundraiserDecider)).toEqual(result.state);
  });

  it('appends nothing when the decision is that nothing happens', async () => {
    await commands.handle(stream, fundraiserDecider, () => create);
    await commands.handle(stream, fundraiserDecider, () => donate('d-1', 5, 'key-1'));
    const retry = await commands.handle(stream, fundraiserDecider, () => donate('d-2', 5, 'key-1'));

    expect(retry).toMatchObject({ events: [], nextExpectedRevision: 1, lastGlobalPosition: null });
    expect(retry.state).toMatchObject({ donationCount: 1 });
    expect(await eventStore.readStream(stream)).toHaveLength(2);
  });

  it('lets a DomainError through and appends nothing', async () => {
    await expect(commands.handle(stream, fundraiserDecider, () => donate('d-1', 5))).rejects.toMatchObject({
      kind: 'not_found',
      message: 'Fundraiser not found',
    });
    expect(await eventStore.headPosition()).toBe(0);
  });

  it('refuses events their schema rejects, which would make the stream unreadable', async () => {
    const attempt = commands.handle(charityStreamName('c-1'), charityDecider, () => ({
      type: 'CreateCharity',
      charityId: 'c-1',
      fields: { name: 'Nameless', mission: 'Good things.', website_url: 'not a url' },
      createdBy: null,
      status: 'approved',
      at: T0,
    }));

    await expect(attempt).rejects.toBeInstanceOf(DomainError);
    await expect(attempt).rejects.toMatchObject({
      kind: 'validation',
      message: expect.stringContaining('website_url'),
    });
    expect(await eventStore.headPosition()).toBe(0);
  });

  it("loads an unknown stream as the decider's initial state", async () => {
    expect(await commands.loadState(charityStreamName('nope'), charityDecider)).toBeNull();
  });

  it('builds the command from the current state (register, then update the profile)', async () => {
    const sync = (displayName: string) =>
      commands.handle(userStreamName('u-1'), userDecider, (user) =>
        user
          ? { type: 'UpdateProfile', userId: 'u-1', displayName, at: T1 }
          : {
              type: 'RegisterUser',
              userId: 'u-1',
              email: null,
              displayName,
              photoURL: null,
              method: 'anonymous',
              at: T0,
            },
      );

    expect((await sync('Ada')).events.map((event) => event.type)).toEqual(['UserRegistered']);
    expect((await sync('Ada L.')).events.map((event) => event.type)).toEqual(['UserProfileUpdated']);
    expect((await sync('Ada L.')).events).toEqual([]);
  });

  it('stores the event ids and metadata the caller gives', async () => {
    await commands.handle(stream, fundraiserDecider, () => create, {
      eventId: (event, index) => `${event.type}-${index}`,
      metadata: { requestId: 'req-1' },
    });

    const [stored] = await eventStore.readStream(stream);
    expect(stored).toMatchObject({ id: 'FundraiserCreated-0', metadata: { requestId: 'req-1', schemaVersion: 1 } });
  });
});

describe('command handler under concurrency', () => {
  it('re-decides after losing a race, so concurrent donations are all kept', async () => {
    const counted = countingConflicts(eventStore);
    const racing = createCommandHandler({ eventStore: counted.store });
    await racing.handle(stream, fundraiserDecider, () => create);

    const results = await Promise.all(
      ['5', '7', '11'].map((amount, i) => racing.handle(stream, fundraiserDecider, () => donate(`d-${i}`, amount))),
    );

    expect(counted.conflicts()).toBeGreaterThan(0);
    expect(results.every((result) => result.events.length === 1)).toBe(true);
    expect(await racing.loadState(stream, fundraiserDecider)).toMatchObject({ donationCount: 3, raisedCents: 2300 });
  });

  it('lets exactly one of two concurrent creates win; the other is a conflict', async () => {
    const outcomes = await Promise.allSettled([
      commands.handle(stream, fundraiserDecider, () => create),
      commands.handle(stream, fundraiserDecider, () => ({ ...create, userId: 'user-2' })),
    ]);

    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const [rejected] = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(rejected?.reason).toMatchObject({ kind: 'conflict', message: 'Fundraiser already exists' });
    expect(await eventStore.readStream(stream)).toHaveLength(1);
  });

  it('records a concurrently duplicated keyed donation once', async () => {
    await commands.handle(stream, fundraiserDecider, () => create);

    const results = await Promise.all([
      commands.handle(stream, fundraiserDecider, () => donate('d-1', 20, 'key-1')),
      commands.handle(stream, fundraiserDecider, () => donate('d-2', '20', 'key-1')),
    ]);

    expect(results.map((result) => result.events.length).sort()).toEqual([0, 1]);
    expect(await commands.loadState(stream, fundraiserDecider)).toMatchObject({ donationCount: 1, raisedCents: 2000 });
  });

  it('refuses the loser of a race that reuses a key with another amount', async () => {
    await commands.handle(stream, fundraiserDecider, () => create);

    const outcomes = await Promise.allSettled([
      commands.handle(stream, fundraiserDecider, () => donate('d-1', 20, 'key-1')),
      commands.handle(stream, fundraiserDecider, () => donate('d-2', 30, 'key-1')),
    ]);

    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const [rejected] = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(rejected?.reason).toMatchObject({ kind: 'conflict' });
    expect(await commands.loadState(stream, fundraiserDecider)).toMatchObject({ donationCount: 1 });
  });

  it('decides again when the store deduplicated an event id written by a racing duplicate', async () => {
    await commands.handle(stream, fundraiserDecider, () => create);
    // As the donation route does: the event id derives from the Idempotency-Key alone.
    const keyed = { eventId: () => 'donation-key-1' };

    const same = await Promise.all([
      commands.handle(stream, fundraiserDecider, () => donate('d-1', 20, 'key-1'), keyed),
      commands.handle(stream, fundraiserDecider, () => donate('d-1', '20', 'key-1'), keyed),
    ]);
    const other = await Promise.allSettled([
      commands.handle(stream, fundraiserDecider, () => donate('d-2', 30, 'key-2'), { eventId: () => 'donation-key-2' }),
      commands.handle(stream, fundraiserDecider, () => donate('d-2', 40, 'key-2'), { eventId: () => 'donation-key-2' }),
    ]);

    // An identical duplicate is answered as recorded (it is, once); the stream holds it once.
    expect(same.map((result) => result.state?.donationCount)).toEqual([1, 1]);
    expect(other.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const [rejected] = other.filter((outcome) => outcome.status === 'rejected');
    expect(rejected?.reason).toMatchObject({
      kind: 'conflict',
      message: 'Idempotency-Key was already used with a different amount',
    });
    expect(await commands.loadState(stream, fundraiserDecider)).toMatchObject({ donationCount: 2, raisedCents: 5000 });
  });

  it('gives up with the ConcurrencyError once its retries are used', async () => {
    let attempts = 0;
    const alwaysStale: EventStore = {
      ...eventStore,
      async appendToStream(streamName) {
        attempts += 1;
        throw new ConcurrencyError(streamName, 'no_stream', 0);
      },
    };
    const handler = createCommandHandler({ eventStore: alwaysStale, retries: 2 });

    await expect(handler.handle(stream, fundraiserDecider, () => create)).rejects.toBeInstanceOf(ConcurrencyError);
    expect(attempts).toBe(3);
  });
});
