import type { CreateFundraiserRequest, Fundraiser, FundraiserStats, ScanAccepted, UserStats } from '@qrshirt/contracts';
import { LRUCache } from 'lru-cache';
import { charityDecider, charityStreamName } from '../charities/charity-decider';
import type { Clock } from '../clock';
import type { CommandHandler } from '../event-sourcing/command-handler';
import { DomainError } from '../event-sourcing/decider';
import type { Ingestion } from '../ingestion/ingestion';
import { shirtDecider, shirtStreamName } from '../shirts/shirt-decider';
import { assertSelf, type Caller } from '../users/caller';
import { type FundraiserState, fundraiserDecider, fundraiserStreamName } from './fundraiser-decider';
import type { ScanVisitors } from './scan-visitors';

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
  /** Hashes a scan's visitor with the day's salt and spots robots. */
  visitors: ScanVisitors;
  clock: Clock;
  newId: () => string;
}

/** Where a scan request came from: never stored, only hashed. */
export interface ScanOrigin {
  /** The client's address, as the trusted proxies report it. */
  address: string;
  userAgent: string;
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

/** Fundraisers: create one, read it, record its scans, show its owner the figures (donations: ../donations/). */
export function createFundraiserUseCases({
  commands,
  fundraisers,
  ingestion,
  visitors,
  clock,
  newId,
}: FundraiserUseCaseDeps) {
  // A fundraiser's identity never changes once it has an owner: the scan and read paths look each one up once.
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
    // An unclaimed one gets its owner later: kept only once it has one.
    if (fundraiser.userId !== null) known.set(id, fundraiser);
    return fundraiser;
  }

  /** The owner's fundraiser; anyone else is refused. */
  async function owned(id: string, caller: Caller): Promise<Fundraiser> {
    let fundraiser = await find(id);
    if (fundraiser.userId === null) {
      // Claimed a moment ago, perhaps: the log knows before the read model does.
      const state = await commands.loadState(fundraiserStreamName(id), fundraiserDecider);
      if (state) fundraiser = toFundraiser(state);
    }
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

    /**
     * Resolves once the request is durable (stored, or acknowledged by Kafka), counted or not:
     * robots and repeats are stored too. Whether it counts is decided where it is written
     * (scan-counting.ts), so the answer cannot tell.
     */
    async recordScan(id: string, origin: ScanOrigin): Promise<ScanAccepted> {
      await find(id);
      const scanId = newId();
      const at = clock();
      const visitor = await visitors.identify(id, origin.address, origin.userAgent, at);
      await ingestion.recordScan({ scanId, fundraiserId: id, at: at.toISOString(), ...visitor });
      return { scanId };
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
