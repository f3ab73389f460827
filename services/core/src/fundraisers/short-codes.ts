import { LRUCache } from 'lru-cache';
import type { Clock } from '../kit/clock';
import type { CommandHandler } from '../kit/command-handler';
import { DomainError } from '../kit/decider';
import { fundraiserDecider, fundraiserStreamName } from './fundraiser-decider';
import { normaliseShortCode, shortCodeCandidate, shortCodeDecider, shortCodeStreamName } from './short-code';

/**
 * Candidates tried before giving up: with a million fundraisers, one of 31^8 codes is taken about
 * once in 850,000 tries, so eight taken in a row do not happen.
 */
const MAX_ATTEMPTS = 8;
/** A code and its fundraiser never part: both ways are kept per process, a few dozen bytes each. */
const CACHED = 50_000;

export interface ShortCodeDeps {
  commands: CommandHandler;
  /** The fundraisers read model's code → id lookup; the log answers while it lags. */
  fundraiserIdByShortCode(this: void, code: string): Promise<string | null>;
  clock: Clock;
}

/** Short links: each fundraiser's code, given by an event, and the fundraiser a code names. */
export function createShortCodes({ commands, fundraiserIdByShortCode, clock }: ShortCodeDeps) {
  const codes = new LRUCache<string, string>({ max: CACHED });
  const fundraisers = new LRUCache<string, string>({ max: CACHED });

  const remember = (fundraiserId: string, code: string) => {
    codes.set(fundraiserId, code);
    fundraisers.set(code, fundraiserId);
  };

  /**
   * The fundraiser's code, given to it now if it has none yet: a fundraiser created before short
   * codes gets one by an event the first time it needs one, never by rewriting its history.
   * Idempotent, and safe with several gateways at once.
   */
  async function assign(fundraiserId: string): Promise<string> {
    const cached = codes.get(fundraiserId);
    if (cached) return cached;
    const state = await commands.loadState(fundraiserStreamName(fundraiserId), fundraiserDecider);
    if (!state) throw new DomainError('not_found', 'Fundraiser not found');
    if (state.shortCode) {
      remember(fundraiserId, state.shortCode);
      return state.shortCode;
    }
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const code = shortCodeCandidate(fundraiserId, attempt);
      const at = clock().toISOString();
      const { state: holder } = await commands.handle(shortCodeStreamName(code), shortCodeDecider, () => ({
        type: 'ReserveShortCode',
        code,
        fundraiserId,
        at,
      }));
      if (holder?.fundraiserId !== fundraiserId) continue;
      const { state: assigned } = await commands.handle(fundraiserStreamName(fundraiserId), fundraiserDecider, () => ({
        type: 'AssignShortCode',
        code,
        at,
      }));
      // Another gateway's assignment stands, had it been first.
      const given = assigned!.shortCode!;
      remember(fundraiserId, given);
      return given;
    }
    throw new Error(`No free short code for fundraiser ${fundraiserId} after ${MAX_ATTEMPTS} candidates`);
  }

  /** The fundraiser a code (as typed, any case) names; null for anything that names none. */
  async function resolve(input: string): Promise<string | null> {
    const code = normaliseShortCode(input);
    if (code === null) return null;
    const cached = fundraisers.get(code);
    if (cached) return cached;
    let fundraiserId = await fundraiserIdByShortCode(code);
    if (!fundraiserId) {
      // Given a moment ago, perhaps. A reservation alone names nothing: its fundraiser may not have taken it.
      const holder = await commands.loadState(shortCodeStreamName(code), shortCodeDecider);
      if (!holder) return null;
      const state = await commands.loadState(fundraiserStreamName(holder.fundraiserId), fundraiserDecider);
      if (state?.shortCode !== code) return null;
      fundraiserId = holder.fundraiserId;
    }
    remember(fundraiserId, code);
    return fundraiserId;
  }

  return { assign, resolve };
}
