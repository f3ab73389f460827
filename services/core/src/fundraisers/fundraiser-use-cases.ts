import { createHash } from 'node:crypto';
import type {
  CreateFundraiserRequest,
  DonateRequest,
  Donation,
  Fundraiser,
  FundraiserStats,
  ScanAccepted,
  UserStats,
} from '@qrshirt/contracts';
import { MAX_IDEMPOTENCY_KEY } from '@qrshirt/contracts';
import { LRUCache } from 'lru-cache';
import { charityDecider, charityStreamName } from '../charities/charity-decider';
import type { Clock } from '../clock';
import type { CommandHandler } from '../event-sourcing/command-handler';
import { DomainError } from '../event-sourcing/decider';
import type { Ingestion } from '../ingestion/ingestion';
import { shirtDecider, shirtStreamName } from '../shirts/shirt-decider';
import { assertSelf, type Caller } from '../users/caller';
import { findKeyedDonation, type FundraiserState, fundraiserDecider, fundraiserStreamName } from './fundraiser-decider';

/** The fundraisers read model (projections' fundraiser queries), as these use cases read it. */
export interface FundraiserReadModel {
  getFundraiser(id: string): Promise<Fundraiser | null>;
  getStats(id: string): Promise<FundraiserStats>;
  getUserStats(userId: string): Promise<UserStats>;
}

export interface FundraiserUseCaseDeps {
  commands: CommandHandler;
  fundraisers: FundraiserReadModel;
  ingestion: Ingestion;
  clock: Clock;
  newId: () => string;
}

function toFundraiser(
  state: Pick<FundraiserState, 'fundraiserId' | 'userId' | 'charityId' | 'shirtId' | 'name'>,
): Fundraiser {
  return {
    id: state.fundraiserId,
    userId: state.userId,
    charityId: state.charityId,
    shirtId: state.shirtId,
    name: state.name,
  };
}

/**
 * The same fundraiser and key always give the same donation id, so two concurrent retries
 * produce the same event id and the store keeps one of them.
 */
function donationIdFor(fundraiserId: string, idempotencyKey: string): string {
  const hex = createHash('sha256').update(`${fundraiserId}\u0000${idempotencyKey}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function normalisedKey(idempotencyKey: string | undefined): string | null {
  const key = idempotencyKey?.trim();
  if (key === undefined || key === '') return null;
  if (key.length > MAX_IDEMPOTENCY_KEY) {
    throw new DomainError('validation', `Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY} characters`);
  }
  return key;
}

/** Fundraisers: create one, read it, record its scans and donations, show its owner the figures. */
export function createFundraiserUseCases({ commands, fundraisers, ingestion, clock, newId }: FundraiserUseCaseDeps) {
  // A fundraiser's identity never changes once created: the scan and read paths look each one up once.
  const known = new LRUCache<string, Fundraiser>({ max: 50_000 });

  /** The read model first; the event log when the projection has not caught up yet. */
  async function find(id: string): Promise<Fundraiser> {
    const cached = known.get(id);
    if (cached) return cached;
    const projected = await fundraisers.getFundraiser(id);
    const state = projected ? null : await commands.loadState(fundraiserStreamName(id), fundraiserDecider);
    const fundraiser = projected
      ? toFundraiser({ ...projected, fundraiserId: projected.id })
      : state && toFundraiser(state);
    if (!fundraiser) throw new DomainError('not_found', 'Fundraiser not found');
    known.set(id, fundraiser);
    return fundraiser;
  }

  /** The owner's fundraiser; anyone else is refused. */
  async function owned(id: string, caller: Caller): Promise<Fundraiser> {
    const fundraiser = await find(id);
    if (caller.anonymous || caller.uid !== fundraiser.userId) {
      throw new DomainError('forbidden', 'Only the owner of this fundraiser can see its stats');
    }
    return fundraiser;
  }

  return {
    get: find,
    owned,

    async create(userId: string, input: CreateFundraiserRequest): Promise<Fundraiser> {
      const [charity, shirt] = await Promise.all([
        commands.loadState(charityStreamName(input.charityId), charityDecider),
        commands.loadState(shirtStreamName(input.shirtId), shirtDecider),
      ]);
      const fundraiserId = newId();
      const { state } = await commands.handle(fundraiserStreamName(fundraiserId), fundraiserDecider, () => ({
        type: 'CreateFundraiser',
        fundraiserId,
        userId,
        charity,
        shirt,
        ...(input.name !== undefined && { name: input.name }),
        at: clock().toISOString(),
      }));
      const created = toFundraiser(state!);
      known.set(fundraiserId, created);
      return created;
    },

    /** Resolves once the scan is durable (stored, or acknowledged by Kafka). */
    async recordScan(id: string): Promise<ScanAccepted> {
      await find(id);
      const scanId = newId();
      await ingestion.recordScan({ scanId, fundraiserId: id, at: clock().toISOString() });
      return { scanId };
    },

    /**
     * Records the widget's report once per Idempotency-Key: a retry answers the donation already
     * recorded (`created` false), the same key with another amount is a conflict.
     */
    async donate(
      id: string,
      input: DonateRequest,
      idempotencyKey?: string,
    ): Promise<{ created: boolean; donation: Donation }> {
      const key = normalisedKey(idempotencyKey);
      const donationId = key ? donationIdFor(id, key) : newId();
      const { events, state } = await commands.handle(
        fundraiserStreamName(id),
        fundraiserDecider,
        () => ({
          type: 'RecordDonation',
          donationId,
          amount: input.amount,
          idempotencyKey: key,
          source: input.source ?? 'widget',
          at: clock().toISOString(),
        }),
        { eventId: () => donationId },
      );
      const recorded = events[0]?.type === 'DonationRecorded' ? events[0].data : undefined;
      const earlier = key ? findKeyedDonation(state!, key) : undefined;
      return {
        created: recorded !== undefined,
        donation: {
          id: recorded?.donationId ?? earlier?.donationId ?? donationId,
          fundraiserId: id,
          amount: (recorded?.amountCents ?? earlier?.amountCents ?? 0) / 100,
          currency: 'USD',
        },
      };
    },

    async stats(id: string, caller: Caller): Promise<FundraiserStats> {
      await owned(id, caller);
      return fundraisers.getStats(id);
    },

    /** A user's impact across their fundraisers, for themselves only. */
    async userStats(userId: string, caller: Caller): Promise<UserStats> {
      assertSelf(userId, caller);
      return fundraisers.getUserStats(userId);
    },
  };
}
export type FundraiserUseCases = ReturnType<typeof createFundraiserUseCases>;
