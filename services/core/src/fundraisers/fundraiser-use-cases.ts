import type {
  CreateFundraiserRequest,
  Fundraiser,
  FundraiserDetails,
  FundraiserStats,
  ScanAccepted,
  UpdateFundraiserRequest,
  UserStats,
} from '@qrshirt/contracts';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../kit/clock';
import type { CommandHandler } from '../kit/command-handler';
import { DomainError } from '../kit/decider';
import { derivedEventId } from '../kit/derived-event-id';
import type { CatalogueEntries } from '../ports/catalogue';
import type { Ingestion } from '../ports/ingestion';
import { assertSelf, type Caller } from '../kit/caller';
import { type FundraiserState, fundraiserDecider, fundraiserStreamName } from './fundraiser-decider';
import type { ScanVisitors } from './scan-visitors';
import type { FundraiserWithFigures } from './fundraiser-queries';
import { createShortCodes } from './short-codes';

/** The fundraisers read model (projections' fundraiser queries), as these use cases read it. */
export interface FundraiserReadModel {
  getFundraiser(id: string): Promise<Fundraiser | null>;
  getFundraiserDetails(id: string): Promise<FundraiserWithFigures | null>;
  getFundraiserIdByShortCode(code: string): Promise<string | null>;
  getStats(id: string): Promise<FundraiserStats>;
  getUserStats(userId: string): Promise<UserStats>;
}

export interface FundraiserUseCaseDeps {
  commands: CommandHandler;
  fundraisers: FundraiserReadModel;
  /** The charity and the shirt a fundraiser is made for, checked as they stand. */
  catalogue: CatalogueEntries;
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

export function toFundraiser(
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

function withFigures(state: FundraiserState, amountRaised: number): FundraiserWithFigures {
  return {
    ...toFundraiser(state),
    goal: state.goalCents === null ? null : state.goalCents / 100,
    amountRaised,
  };
}

/**
 * The answer anyone may get: whether the fundraiser is the caller's, never whose it is. An
 * anonymous session owns nothing, and an unclaimed fundraiser is nobody's.
 */
function detailsFor({ userId, ...fundraiser }: FundraiserWithFigures, caller: Caller | undefined): FundraiserDetails {
  const owned = caller !== undefined && !caller.anonymous && userId !== null && caller.uid === userId;
  return { ...fundraiser, owned };
}

/** Fundraisers: create one, read it, record its scans, show its owner the figures (donations: ../donations/). */
export function createFundraiserUseCases({
  commands,
  fundraisers,
  catalogue,
  ingestion,
  visitors,
  clock,
  newId,
}: FundraiserUseCaseDeps) {
  /*
   * A fundraiser's id never changes, nor its owner once it has one: the scan and donation paths look
   * each one up once. Its name, charity and goal do change (PATCH), and other gateways would not
   * know, so what shows them (`details`) reads the read model every time instead of this cache.
   */
  const known = new LRUCache<string, Fundraiser>({ max: 50_000 });
  const shortCodes = createShortCodes({
    commands,
    fundraiserIdByShortCode: (code) => fundraisers.getFundraiserIdByShortCode(code),
    clock,
  });

  /** That the fundraiser exists, and whose it is: the read model first, the log when it lags. */
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
  async function owned(
    id: string,
    caller: Caller,
    refusal = 'Only the owner of this fundraiser can see its stats',
  ): Promise<Fundraiser> {
    let fundraiser = await find(id);
    if (fundraiser.userId === null) {
      // Claimed a moment ago, perhaps: the log knows before the read model does.
      const state = await commands.loadState(fundraiserStreamName(id), fundraiserDecider);
      if (state) fundraiser = toFundraiser(state);
    }
    if (caller.anonymous || caller.uid !== fundraiser.userId) throw new DomainError('forbidden', refusal);
    return fundraiser;
  }

  /**
   * The read model's view, as the caller (if any token came) may see it; the log's when the
   * projection has not caught up yet (no money then).
   */
  async function details(id: string, caller: Caller | undefined): Promise<FundraiserDetails> {
    const projected = await fundraisers.getFundraiserDetails(id);
    if (projected) {
      // Claimed a moment ago, perhaps: the log knows its owner before the read model does.
      const owner =
        projected.userId === null && caller !== undefined && !caller.anonymous
          ? ((await commands.loadState(fundraiserStreamName(id), fundraiserDecider))?.userId ?? null)
          : projected.userId;
      return detailsFor({ ...projected, userId: owner }, caller);
    }
    const state = await commands.loadState(fundraiserStreamName(id), fundraiserDecider);
    if (!state) throw new DomainError('not_found', 'Fundraiser not found');
    return detailsFor(withFigures(state, 0), caller);
  }

  return {
    get: find,
    details,
    owned,
    /** The code of the fundraiser's short link, which its QR code encodes (given now if it has none). */
    shortCode: shortCodes.assign,
    /** The fundraiser id a short link's code names; null for an unknown or malformed code. */
    byShortCode: shortCodes.resolve,

    /**
     * Under an Idempotency-Key the fundraiser's id is derived from the owner and the key: a retry
     * (after a 503, a cut connection, a crash) finds the one the first try made and answers it
     * (`created` false), finishing what that try left undone; the same key with another body is a
     * conflict. Another owner's same key names another fundraiser.
     */
    async create(
      userId: string,
      input: CreateFundraiserRequest,
      idempotencyKey?: string,
    ): Promise<{ created: boolean; fundraiser: Fundraiser }> {
      const key = idempotencyKey?.trim() || undefined;
      const [charity, shirt] = await Promise.all([catalogue.charity(input.charityId), catalogue.shirt(input.shirtId)]);
      const fundraiserId = key ? derivedEventId('create-fundraiser', `${userId}\u0000${key}`) : newId();
      const { events, state } = await commands.handle(
        fundraiserStreamName(fundraiserId),
        fundraiserDecider,
        () => ({
          type: 'CreateFundraiser',
          fundraiserId,
          userId,
          charity,
          shirt,
          ...(input.name !== undefined && { name: input.name }),
          ...(key && { retry: true }),
          at: clock().toISOString(),
        }),
        // Two concurrent tries append the same event id: the store keeps one.
        key ? { eventId: () => fundraiserId } : {},
      );
      const fundraiser = toFundraiser(state!);
      known.set(fundraiserId, fundraiser);
      // Its QR code can be drawn as soon as it exists; had this failed, drawing it (or the retry) tries again.
      await shortCodes.assign(fundraiserId);
      return { created: events.length > 0, fundraiser };
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

    /**
     * The owner changes their shirt: its name, its charity (the QR code keeps working, and what it
     * raised so far stays with the charity it was raised for) or its goal.
     */
    async update(id: string, caller: Caller, input: UpdateFundraiserRequest): Promise<FundraiserDetails> {
      // Refused before anything else is loaded: a stranger learns nothing about the charity named.
      await owned(id, caller, 'Only the owner of this fundraiser can change it');
      const charity = input.charityId === undefined ? undefined : await catalogue.charity(input.charityId);
      const { state } = await commands.handle(fundraiserStreamName(id), fundraiserDecider, () => ({
        type: 'UpdateFundraiser',
        userId: caller.uid,
        ...(input.name !== undefined && { name: input.name }),
        ...(charity !== undefined && { charity }),
        ...(input.goal !== undefined && { goalCents: input.goal === null ? null : Math.round(input.goal * 100) }),
        at: clock().toISOString(),
      }));
      if (!state) throw new DomainError('not_found', 'Fundraiser not found');
      known.set(id, toFundraiser(state));
      // The change is in the log; the read model may not have it yet, but it has the money.
      const projected = await fundraisers.getFundraiserDetails(id);
      return detailsFor(withFigures(state, projected?.amountRaised ?? 0), caller);
    },

    async stats(id: string, caller: Caller): Promise<FundraiserStats> {
      await owned(id, caller);
      return fundraisers.getStats(id);
    },

    /** The figures its owner sees, for an operator (the route lets only admins ask). */
    async statsForOperator(id: string): Promise<FundraiserStats> {
      await find(id);
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
