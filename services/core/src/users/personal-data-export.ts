import { type DomainEvent, type PersonalDataExport, readEvent, type UserStats } from '@qrshirt/contracts';
import { assertSelf, type Caller } from '../kit/caller';
import type { Clock } from '../kit/clock';
import type { CommandHandler } from '../kit/command-handler';
import { DomainError } from '../kit/decider';
import { normalEmailAddress } from '../kit/email-address';
import type { EventStore, StoredEvent } from '../kit/event-store';
import type { LookupKeys } from '../kit/lookup-keys';
import type { AddressRecords } from '../ports/address-records';
import type { CredentialsStore } from '../ports/credentials-store';
import { emailReservationDecider, emailReservationStreamName } from './email-reservation';
import { userDecider, userStreamName } from './user-decider';

type ExportedEvent = PersonalDataExport['events'][number];
type ExportedEntry = PersonalDataExport['waitlistEntries'][number];
type ExportedDonation = PersonalDataExport['donations'][number];
type SignInMethod = PersonalDataExport['signInMethods'][number];
type Readable = { stored: StoredEvent; event: DomainEvent };
type Joined = { stored: StoredEvent; event: Extract<DomainEvent, { type: 'WaitlistJoined' }> };

/**
 * What a fundraiser's stream holds of its owner's own doing. The stream also holds donations of
 * older logs (`DonationRecorded`): strangers' acts, with their clients' idempotency keys, which
 * the export leaves out; the owner's figures count them, naming nobody. Scans and today's
 * donations live in streams of their own, which the export does not read.
 */
const FUNDRAISER_FACTS = new Set<string>([
  'FundraiserCreated',
  'FundraiserClaimed',
  'FundraiserShortCodeAssigned',
  'FundraiserCharityChanged',
  'FundraiserRenamed',
  'FundraiserGoalSet',
]);

/**
 * Hashes of the secrets of links mailed to the person: they hold the links themselves, and a copy
 * of the hashes in a downloaded file would only help whoever finds the file guess at them.
 */
const LINK_HASHES = ['confirmTokenHash', 'removeTokenHash', 'claimTokenHash'];

function readable(stored: StoredEvent): Readable | null {
  try {
    return { stored, event: readEvent(stored.type, stored.data, stored.metadata) };
  } catch {
    // Unreadable as its contract says: the projections and the admin's views pass over it too.
    return null;
  }
}

const entryIdOf = ({ event }: Readable): string | undefined =>
  'entryId' in event.data && typeof event.data.entryId === 'string' ? event.data.entryId : undefined;

function exported({ stored, event }: Readable): ExportedEvent {
  const data: Record<string, unknown> = { ...event.data };
  for (const field of LINK_HASHES) delete data[field];
  return { stream: stored.streamName, type: event.type, recordedAt: stored.recordedAt.toISOString(), data };
}

/**
 * Where the log keeps what the person did outside their account's own streams: the features that
 * write those streams name them, and the composition root hands their namers in.
 */
interface PersonalRecordStreams {
  /** The streams of a waitlist entry's later steps besides its signup's: its fulfilment and removal. */
  waitlistEntrySteps(this: void, entryId: string): readonly string[];
  /** A fundraiser's own stream: its creation, claim and changes. */
  fundraiser(this: void, fundraiserId: string): string;
}

interface PersonalDataExporter {
  /** The person's own data; someone else's account is refused, a closed one is not found. */
  exportOwn(userId: string, caller: Caller): Promise<PersonalDataExport>;
}

/**
 * A person's data export, read from the log as the people-facing store reveals it (names and emails
 * in clear, null where erased) and from the credentials store, which gives only which methods sign
 * in, never their secrets. Waitlist entries are theirs when made with the address they verified
 * (an unverified one could be anyone's), or when they claimed the shirt made for the entry; card
 * donations, when their receipts went to that address. Both are found by the address's records,
 * never by reading the log: a claimed entry by the address its fulfilment copied, so one whose
 * person removed it after the claim (its address erased) is left out, its fundraiser kept.
 */
export function createPersonalDataExport({
  commands,
  eventStore,
  credentials,
  fundraisersOf,
  donationsMadeWith,
  personalRecordStreams: streams,
  addressRecords,
  lookupKeys,
  clock,
}: {
  commands: CommandHandler;
  /** The store with personal fields revealed (`withPersonalData`). */
  eventStore: EventStore;
  credentials: Pick<CredentialsStore, 'passwordHash' | 'identitiesOf'>;
  /** The person's fundraisers with their figures, as the person's own stats page shows them. */
  fundraisersOf(this: void, userId: string, caller: Caller): Promise<UserStats>;
  /** The donations whose receipts went to an address, with their events as the store reveals them. */
  donationsMadeWith(this: void, address: string): Promise<{ donation: ExportedDonation; events: StoredEvent[] }[]>;
  personalRecordStreams: PersonalRecordStreams;
  /** Where the waitlist noted each signup under its address. */
  addressRecords: Pick<AddressRecords, 'of'>;
  /** Names the reservation of the account's address. */
  lookupKeys: Pick<LookupKeys, 'email'>;
  clock: Clock;
}): PersonalDataExporter {
  async function streamOf(name: string): Promise<Readable[]> {
    return (await eventStore.readStream(name)).flatMap((stored) => readable(stored) ?? []);
  }

  /** The signups noted under the address (of the one entry, if given) that were stored with it. */
  async function signupsMadeWith(address: string, entryId?: string): Promise<Joined[]> {
    const wanted = normalEmailAddress(address);
    const found: Joined[] = [];
    for (const record of await addressRecords.of(address)) {
      if (record.kind !== 'waitlist-signup' || (entryId !== undefined && record.entryId !== entryId)) continue;
      for (const { stored, event } of await streamOf(record.stream)) {
        if (event.type !== 'WaitlistJoined' || event.data.entryId !== record.entryId) continue;
        if (event.data.email !== null && normalEmailAddress(event.data.email) === wanted) found.push({ stored, event });
      }
    }
    return found;
  }

  /** The signup of an entry whose shirt the person claimed, found by the address its fulfilment copied. */
  async function claimedSignup(entryId: string): Promise<Joined[]> {
    const steps = (await Promise.all(streams.waitlistEntrySteps(entryId).map((name) => streamOf(name)))).flat();
    for (const { event } of steps) {
      if (event.type === 'WaitlistEntryFulfilled' && event.data.entryId === entryId && event.data.email !== null) {
        return signupsMadeWith(event.data.email, entryId);
      }
    }
    return [];
  }

  /** The entry's events (a legacy stream holds a whole shirt's list: only this entry's) and where it got. */
  async function entryOf(joined: Joined) {
    const { entryId } = joined.event.data;
    const read = await Promise.all(
      [joined.stored.streamName, ...streams.waitlistEntrySteps(entryId)].map((name) => streamOf(name)),
    );
    const events = read.flat().filter((found) => entryIdOf(found) === entryId);
    const at = (type: string) => events.find(({ event }) => event.type === type)?.event.data.at ?? null;
    const fulfilled = events.find(({ event }) => event.type === 'WaitlistEntryFulfilled')?.event;
    const fundraiserId = fulfilled?.type === 'WaitlistEntryFulfilled' ? fulfilled.data.fundraiserId : null;
    // The claim is a fact of the fundraiser's stream; only its time is read from there.
    const claimed = fundraiserId
      ? (await streamOf(streams.fundraiser(fundraiserId))).find(
          ({ event }) => event.type === 'FundraiserClaimed' && event.data.entryId === entryId,
        )
      : undefined;
    const { name, email, shirtId, size, charityId, confirmTokenHash } = joined.event.data;
    const dates = {
      confirmedAt: at('WaitlistEntryConfirmed'),
      fulfilledAt: at('WaitlistEntryFulfilled'),
      claimedAt: claimed?.event.data.at ?? null,
      removedAt: at('WaitlistEntryRemoved'),
    };
    const status: ExportedEntry['status'] = dates.removedAt
      ? 'removed'
      : dates.claimedAt
        ? 'claimed'
        : dates.fulfilledAt
          ? 'fulfilled'
          : dates.confirmedAt || !confirmTokenHash
            ? 'waiting'
            : 'unconfirmed';
    const entry: ExportedEntry = {
      id: entryId,
      name,
      email,
      shirtId,
      size,
      charityId,
      status,
      joinedAt: joined.event.data.at,
      ...dates,
      fundraiserId,
    };
    return { entry, events };
  }

  return {
    async exportOwn(userId, caller) {
      assertSelf(userId, caller);
      const user = await commands.loadState(userStreamName(userId), userDecider);
      if (!user || user.closed) throw new DomainError('not_found', 'User not found');
      const reservationStream = user.email ? emailReservationStreamName(lookupKeys, user.email) : null;
      const [userEvents, reservationEvents, holder, passwordHash, identities, stats] = await Promise.all([
        streamOf(userStreamName(userId)),
        reservationStream ? streamOf(reservationStream) : [],
        reservationStream ? commands.loadState(reservationStream, emailReservationDecider) : null,
        credentials.passwordHash(userId),
        credentials.identitiesOf(userId),
        fundraisersOf(userId, caller),
      ]);
      // The address may have been someone else's before: only this account's reservation events.
      const reservation = reservationEvents.filter(
        ({ event }) => 'userId' in event.data && event.data.userId === userId,
      );
      const emailVerified = holder?.userId === userId && holder.verified;

      const fundraiserEvents = (
        await Promise.all(stats.fundraiserStats.map(({ id }) => streamOf(streams.fundraiser(id))))
      )
        .flat()
        .filter(({ event }) => FUNDRAISER_FACTS.has(event.type));
      const claimedEntries = new Set(fundraiserEvents.flatMap((found) => entryIdOf(found) ?? []));

      const address = emailVerified && user.email ? normalEmailAddress(user.email) : null;
      const joined = address === null ? [] : await signupsMadeWith(address);
      for (const entryId of claimedEntries) {
        if (!joined.some(({ event }) => event.data.entryId === entryId)) joined.push(...(await claimedSignup(entryId)));
      }
      joined.sort((a, b) => a.stored.globalPosition - b.stored.globalPosition);
      const entries: Awaited<ReturnType<typeof entryOf>>[] = [];
      for (const signup of joined) entries.push(await entryOf(signup));
      // Like signups, donations made with an address are theirs only once they proved it theirs.
      const donations = address === null ? [] : await donationsMadeWith(address);

      const firstUse = (method: string) =>
        userEvents.find(
          ({ event }) =>
            (event.type === 'UserRegistered' || event.type === 'UserSignedIn') && event.data.method === method,
        )?.event.data.at ?? null;
      const signInMethods: SignInMethod[] = [
        ...(passwordHash === null ? [] : [{ kind: 'password' as const, email: user.email }]),
        ...identities.map(({ provider, subject }): SignInMethod =>
          provider === 'google'
            ? { kind: 'google', subject, firstUsedAt: firstUse('google') }
            : { kind: 'phone', firstUsedAt: firstUse('phone') },
        ),
      ];

      const events = [
        ...userEvents,
        ...reservation,
        ...fundraiserEvents,
        ...entries.flatMap(({ events }) => events),
        ...donations.flatMap(({ events }) => events.flatMap((stored) => readable(stored) ?? [])),
      ]
        .sort((a, b) => a.stored.globalPosition - b.stored.globalPosition)
        .map(exported);

      return {
        exportedAt: clock().toISOString(),
        profile: {
          uid: userId,
          displayName: user.displayName,
          email: user.email,
          emailVerified,
          photoURL: user.photoURL,
          dailySummary: user.dailySummary,
          registeredAt: user.registeredAt,
          registeredWith: user.registeredWith,
          lastSignInAt: user.lastSignInAt,
        },
        signInMethods,
        fundraisers: stats,
        waitlistEntries: entries.map(({ entry }) => entry),
        donations: donations.map(({ donation }) => donation),
        events,
      };
    },
  };
}
