import { randomInt } from 'node:crypto';
import type { CommandHandler } from '../kit/command-handler';
import type { EntryFundraisers } from '../ports/entry-fundraisers';
import { fundraiserDecider, fundraiserStreamName } from './fundraiser-decider';
import { toFundraiser } from './fundraiser-use-cases';
import { randomCode } from './short-code';

/*
 * A fulfilled entry's fundraiser id, which QR codes printed before short codes carry: of the short
 * codes' alphabet (nothing to confuse when read off a print), 10 characters of 31 (about 50 bits,
 * so a clash is unlikely, and the fundraiser's stream refuses one anyway).
 */
const FUNDRAISER_ID_LENGTH = 10;

/** Fulfilment's port to fundraisers: the fundraiser of a waitlist entry, made, found and claimed. */
export function createEntryFundraisers(commands: CommandHandler): EntryFundraisers {
  return {
    newId: () => randomCode(FUNDRAISER_ID_LENGTH, randomInt),
    async find(fundraiserId) {
      const state = await commands.loadState(fundraiserStreamName(fundraiserId), fundraiserDecider);
      return state && toFundraiser(state);
    },
    async create({ fundraiserId, entryId, shirt, charity, at }) {
      const { state } = await commands.handle(fundraiserStreamName(fundraiserId), fundraiserDecider, () => ({
        type: 'CreateFundraiser',
        fundraiserId,
        userId: null,
        entryId,
        charity,
        shirt,
        at,
      }));
      return toFundraiser(state!);
    },
    async claim({ fundraiserId, userId, claimant, tokenHash, offer, at }) {
      const { events, state } = await commands.handle(fundraiserStreamName(fundraiserId), fundraiserDecider, () => ({
        type: 'ClaimFundraiser',
        userId,
        claimant,
        tokenHash,
        fulfilment: offer,
        at,
      }));
      return { claimed: events.length > 0, fundraiser: toFundraiser(state!) };
    },
  };
}
