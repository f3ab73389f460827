import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { charityDecider, charityStreamName } from '../../src/catalogue/charity-decider';
import { type CommandHandler, createCommandHandler } from '../../src/kit/command-handler';
import { DomainError } from '../../src/kit/decider';
import { donationReportDecider, donationReportStreamName } from '../../src/donations/donation-report-decider';
import { processorDonationDecider, processorDonationStreamName } from '../../src/donations/processor-donation-decider';
import {
  type CreateFundraiser,
  fundraiserDecider,
  fundraiserStreamName,
} from '../../src/fundraisers/fundraiser-decider';
import { userDecider, userStreamName } from '../../src/users/user-decider';
import { ConcurrencyError, type EventStore } from '../../src/kit/event-store';
import { createInMemoryEventStore } from '@qrshirt/core';
import { T0, T1, charity, reportDonation, shirt } from './fixtures';

const stream = fundraiserStreamName('f-1');
const create: CreateFundraiser = {
  type: 'CreateFundraiser',
  fundraiserId: 'f-1',
  userId: 'user-1',
  charity,
  shirt,
  at: T0,
};
const reportStream = donationReportStreamName('r-1');
const report = (amount: unknown, idempotencyKey = 'key-1') => reportDonation(amount, idempotencyKey);
const confirmReport = {
  type: 'ConfirmReport',
  reportId: 'r-1',
  fundraiserId: 'f-1',
  donationId: 'pi_1',
  at: T1,
} as const;

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
    expect(result.state).toMatchObject({ fundraiserId: 'f-1', name: 'Scan Me Maybe' });
    expect(result.nextExpectedRevision).toBe(0);
    const stored = await eventStore.readStream(stream);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ type: 'FundraiserCreated', metadata: { schemaVersion: 2 } });
    expect(result.lastGlobalPosition).toBe(stored[0]!.globalPosition);
  });

  it('decides on the folded stream and appends after its last revision', async () => {
    await commands.handle(reportStream, donationReportDecider, () => confirmReport);
    const result = await commands.handle(reportStream, donationReportDecider, () => report('12.50'));

    expect(result.nextExpectedRevision).toBe(1);
    expect(result.state).toEqual({
      report: { fundraiserId: 'f-1', amountCents: 1250, awaiting: false, at: T1 },
      checkout: null,
      confirmedBy: 'pi_1',
      dropped: false,
    });
    expect(await commands.loadState(reportStream, donationReportDecider)).toEqual(result.state);
  });

  it('appends nothing when the decision is that nothing happens', async () => {
    await commands.handle(reportStream, donationReportDecider, () => report(5));
    const retry = await commands.handle(reportStream, donationReportDecider, () => report(5));

    expect(retry).toMatchObject({ events: [], nextExpectedRevision: 0, lastGlobalPosition: null });
    expect(retry.state).toMatchObject({ report: { amountCents: 500 } });
    expect(await eventStore.readStream(reportStream)).toHaveLength(1);
  });

  it('lets a DomainError through and appends nothing', async () => {
    const nothing = {
      type: 'ConfirmDonation',
      donationId: 'pi_1',
      fundraiserId: 'f-1',
      charityId: 'c-1',
      amount: 0,
      reportId: null,
      live: true,
      paidAt: T1,
      receiptTo: null,
      at: T1,
    } as const;
    await expect(
      commands.handle(processorDonationStreamName('pi_1'), processorDonationDecider, () => nothing),
    ).rejects.toMatchObject({ kind: 'validation', message: 'amount must be a number greater than 0' });
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
    expect(stored).toMatchObject({ id: 'FundraiserCreated-0', metadata: { requestId: 'req-1', schemaVersion: 2 } });
  });
});

describe('command handler under concurrency', () => {
  it('re-decides after losing a race, so concurrent sign-ins are all kept', async () => {
    const counted = countingConflicts(eventStore);
    const racing = createCommandHandler({ eventStore: counted.store });
    const user = userStreamName('u-1');
    await racing.handle(user, userDecider, () => ({
      type: 'RegisterUser',
      userId: 'u-1',
      email: null,
      displayName: 'Ada',
      photoURL: null,
      method: 'anonymous',
      at: T0,
    }));

    const results = await Promise.all(
      (['password', 'google', 'phone'] as const).map((method) =>
        racing.handle(user, userDecider, () => ({ type: 'RecordSignIn', userId: 'u-1', method, at: T1 })),
      ),
    );

    expect(counted.conflicts()).toBeGreaterThan(0);
    expect(results.every((result) => result.events.length === 1)).toBe(true);
    expect(await eventStore.readStream(user)).toHaveLength(4);
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

  it('records a concurrently duplicated keyed report once', async () => {
    const results = await Promise.all([
      commands.handle(reportStream, donationReportDecider, () => report(20)),
      commands.handle(reportStream, donationReportDecider, () => report('20')),
    ]);

    expect(results.map((result) => result.events.length).sort()).toEqual([0, 1]);
    expect(await eventStore.readStream(reportStream)).toHaveLength(1);
  });

  it('refuses the loser of a race that reuses a key with another amount', async () => {
    const outcomes = await Promise.allSettled([
      commands.handle(reportStream, donationReportDecider, () => report(20)),
      commands.handle(reportStream, donationReportDecider, () => report(30)),
    ]);

    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const [rejected] = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(rejected?.reason).toMatchObject({ kind: 'conflict' });
    expect(await eventStore.readStream(reportStream)).toHaveLength(1);
  });

  it('decides again when the store deduplicated an event id written by a racing duplicate', async () => {
    // As the donation route does: the event id derives from the Idempotency-Key alone.
    const keyed = { eventId: () => 'report-key-1' };
    const otherStream = donationReportStreamName('r-2');
    const other = (amount: number) => ({ ...report(amount, 'key-2'), reportId: 'r-2' });

    const same = await Promise.all([
      // Decided at different instants: the same report with other data, as two requests would send it.
      commands.handle(reportStream, donationReportDecider, () => report(20), keyed),
      commands.handle(reportStream, donationReportDecider, () => ({ ...report('20'), at: T0 }), keyed),
    ]);
    const differing = await Promise.allSettled([
      commands.handle(otherStream, donationReportDecider, () => other(30), { eventId: () => 'report-key-2' }),
      commands.handle(otherStream, donationReportDecider, () => other(40), { eventId: () => 'report-key-2' }),
    ]);

    // An identical duplicate is answered as recorded (it is, once); the stream holds it once.
    expect(same.map((result) => result.state?.report?.amountCents)).toEqual([2000, 2000]);
    expect(await eventStore.readStream(reportStream)).toHaveLength(1);
    expect(differing.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const [rejected] = differing.filter((outcome) => outcome.status === 'rejected');
    expect(rejected?.reason).toMatchObject({
      kind: 'conflict',
      message: 'Idempotency-Key was already used with a different amount',
    });
    expect(await eventStore.readStream(otherStream)).toHaveLength(1);
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
