import type { EventData, Fundraiser } from '@qrshirt/contracts';
import type { Clock } from '../kit/clock';
import type { CommandHandler } from '../kit/command-handler';
import { DomainError } from '../kit/decider';
import { linkTokenHash, newLinkSecret } from '../kit/link-tokens';
import type { Caller } from '../kit/caller';
import {
  type CatalogueCharity,
  type CatalogueEntries,
  type CatalogueShirt,
  isApprovedCharity,
} from '../ports/catalogue';
import { type EntryFundraisers, INVALID_CLAIM_LINK } from '../ports/entry-fundraisers';
import type { WaitlistEntriesQueries } from './waitlist-entries-queries';
import {
  CLAIM_LINK_TTL_MS,
  ENTRY_ERASED,
  ENTRY_ID,
  fulfilmentDecider,
  fulfilmentStreamName,
} from './fulfilment-decider';

/**
 * The removal links a claim mail carried: its token is `<entryId>.<secret>`, whose hashes the
 * entry's fulfilment keeps (entries of old logs without a signup stream have only these). The
 * waitlist's use cases take it as their port to fulfilment.
 */
export function createClaimMailRemovalLinks(commands: CommandHandler) {
  return async (token: string) => {
    const [entryId, secret, ...rest] = token.split('.');
    if (rest.length > 0 || !secret || !ENTRY_ID.test(entryId!)) return null;
    const stream = fulfilmentStreamName(entryId!);
    const fulfilment = await commands.loadState(stream, fulfilmentDecider);
    return fulfilment && { entryId: fulfilment.entryId, hashes: fulfilment.removeTokenHashes, stream };
  };
}

/** What the claim mail says; the gateway renders it and stores it in the outbox. */
export interface ClaimLinkMail {
  to: string;
  shirtName: string;
  charityName: string;
  /** Goes into the link only: it is stored nowhere else. */
  token: string;
  /** The removal link's token, which every waitlist mail carries; the log keeps its SHA-256. */
  removeToken: string;
}

export interface FulfilmentUseCaseDeps {
  commands: CommandHandler;
  /** Where entries are found: the waitlist entries' read model, names and emails sealed as in the log. */
  entries: Pick<WaitlistEntriesQueries, 'entry' | 'ofShirtAndSize'>;
  clock: Clock;
  /** Resolves once the mail is stored in the outbox. */
  sendClaimLink(this: void, mail: ClaimLinkMail): Promise<void>;
  /** The account's address and whether its holder proved it is theirs. */
  addressOf(this: void, uid: string): Promise<{ email: string | null; verified: boolean }>;
  /** The fundraisers made for entries, which their people claim. */
  fundraisers: EntryFundraisers;
  /** The entry's shirt and charity, checked as they stand. */
  catalogue: CatalogueEntries;
  /** The code of the fundraiser's short link, given to it if it has none: its QR code encodes it. */
  shortCodeOf(this: void, fundraiserId: string): Promise<string>;
}

const UNCONFIRMED = "This entry's address has not been confirmed yet: its person has not opened the confirmation link";

/** Whom a claim mail goes to; nobody once the entry's person removed it, which erased both. */
function recipient({ name, email }: { name: string | null; email: string | null }): string {
  if (name === null || email === null) throw new DomainError('gone', ENTRY_ERASED);
  return email;
}

export interface FulfilledEntry {
  entryId: string;
  fundraiser: Fundraiser;
  /** The code of its short link: what its QR code encodes and what is printed under it. */
  shortCode: string;
  size: string;
}

/**
 * An operator fulfils waitlist entries: a fundraiser for the entry's shirt and charity, owned by
 * nobody yet, and a claim link mailed to the entry's address; its person claims it with that link.
 * Only confirmed entries are fulfilled: a claim link goes only to an address that asked for the shirt.
 */
export function createFulfilmentUseCases({
  commands,
  entries,
  clock,
  sendClaimLink,
  addressOf,
  fundraisers,
  catalogue,
  shortCodeOf,
}: FulfilmentUseCaseDeps) {
  /**
   * A claim link's token (its secret goes only into the mail), the hash kept of it and its end, and
   * the token of the removal link mailed with it: both `<entryId>.<secret>`, naming the
   * fulfilment's stream, which keeps their hashes.
   */
  function newClaimLink(entryId: string, now: Date) {
    const token = `${entryId}.${newLinkSecret()}`;
    const removeToken = `${entryId}.${newLinkSecret()}`;
    return {
      token,
      claimTokenHash: linkTokenHash(token),
      claimExpiresAt: new Date(now.getTime() + CLAIM_LINK_TTL_MS).toISOString(),
      removeToken,
      removeTokenHash: linkTokenHash(removeToken),
    };
  }

  async function fulfilEntry(
    entry: EventData<'WaitlistJoined'>,
    shirt: CatalogueShirt | null,
    charity: CatalogueCharity | null,
  ): Promise<FulfilledEntry> {
    // Checked before anything is written: a fulfilled entry must get its fundraiser and its mail.
    const to = recipient(entry);
    if (!shirt) throw new DomainError('conflict', "The entry's shirt is no longer in the shop");
    if (!isApprovedCharity(charity)) throw new DomainError('conflict', "The entry's charity is no longer in the shop");
    const fundraiserId = fundraisers.newId();
    const now = clock();
    const { token, claimTokenHash, claimExpiresAt, removeToken, removeTokenHash } = newClaimLink(entry.entryId, now);
    // First the entry's fulfilment, which refuses a second one, then its fundraiser.
    await commands.handle(fulfilmentStreamName(entry.entryId), fulfilmentDecider, () => ({
      type: 'FulfilEntry',
      entry,
      fundraiserId,
      claimTokenHash,
      claimExpiresAt,
      removeTokenHash,
      at: now.toISOString(),
    }));
    const fundraiser = await createItsFundraiser(entry.entryId, fundraiserId, shirt, charity, now);
    const shortCode = await shortCodeOf(fundraiserId);
    await sendClaimLink({ to, shirtName: shirt.name, charityName: charity.name, token, removeToken });
    return { entryId: entry.entryId, fundraiser, shortCode, size: entry.size };
  }

  function createItsFundraiser(
    entryId: string,
    fundraiserId: string,
    shirt: CatalogueShirt | null,
    charity: CatalogueCharity | null,
    now: Date,
  ): Promise<Fundraiser> {
    return fundraisers.create({ fundraiserId, entryId, shirt, charity, at: now.toISOString() });
  }

  async function shirtAndCharity(shirtId: string, charityId: string) {
    return Promise.all([catalogue.shirt(shirtId), catalogue.charity(charityId)]);
  }

  return {
    /** One entry: 404 for an unknown id, 409 for one fulfilled already or not confirmed, 410 for a removed one. */
    async fulfil(entryId: string): Promise<FulfilledEntry> {
      const found = await entries.entry(entryId);
      if (!found) throw new DomainError('not_found', 'Waitlist entry not found');
      const { entry, status } = found;
      if (status === 'removed') throw new DomainError('gone', ENTRY_ERASED);
      if (status === 'unconfirmed') throw new DomainError('conflict', UNCONFIRMED);
      const [shirt, charity] = await shirtAndCharity(entry.shirtId, entry.charityId);
      return fulfilEntry(entry, shirt, charity);
    },

    /**
     * Every confirmed entry of the shirt in the size that is still waiting, oldest first. An entry another
     * operator fulfils meanwhile is left to them.
     */
    async fulfilWaiting(shirtId: string, size: string): Promise<FulfilledEntry[]> {
      const shirt = await catalogue.shirt(shirtId);
      if (!shirt) throw new DomainError('not_found', 'Shirt not found');
      // A status a moment old at worst: the fulfilment's stream refuses an entry fulfilled meanwhile.
      const waiting = (await entries.ofShirtAndSize(shirtId, size))
        .filter(({ status }) => status === 'waiting')
        .map(({ entry }) => entry);
      if (waiting.length === 0)
        throw new DomainError('not_found', `No entry for ${shirt.name} in size ${size} is waiting`);
      const charities = new Map<string, CatalogueCharity | null>();
      const fulfilled: FulfilledEntry[] = [];
      for (const entry of waiting) {
        if (!charities.has(entry.charityId)) {
          charities.set(entry.charityId, await catalogue.charity(entry.charityId));
        }
        try {
          fulfilled.push(await fulfilEntry(entry, shirt, charities.get(entry.charityId) ?? null));
        } catch (error) {
          // Fulfilled by someone else or removed by its person meanwhile, or its charity left the
          // shop: the rest still print.
          if (error instanceof DomainError && (error.kind === 'conflict' || error.kind === 'gone')) continue;
          throw error;
        }
      }
      if (fulfilled.length === 0) throw new DomainError('conflict', 'Every waiting entry was fulfilled meanwhile');
      return fulfilled;
    },

    /**
     * A new claim link for a fulfilled entry nobody claimed: the first expired (30 days) or never
     * arrived. It replaces the earlier link. A fulfilment whose fundraiser was never made (the
     * process stopped between the two) gets it now.
     */
    async reissueClaimLink(entryId: string): Promise<FulfilledEntry> {
      const fulfilment = await commands.loadState(fulfilmentStreamName(entryId), fulfilmentDecider);
      if (!fulfilment) throw new DomainError('not_found', 'This waitlist entry has not been fulfilled');
      const to = recipient(fulfilment);
      const now = clock();
      const [shirt, charity] = await shirtAndCharity(fulfilment.shirtId, fulfilment.charityId);
      const made = await fundraisers.find(fulfilment.fundraiserId);
      if (!made && (!shirt || !isApprovedCharity(charity))) {
        throw new DomainError('conflict', "The entry's shirt or charity is no longer in the shop");
      }
      const fundraiser = made ?? (await createItsFundraiser(entryId, fulfilment.fundraiserId, shirt, charity, now));
      const { token, claimTokenHash, claimExpiresAt, removeToken, removeTokenHash } = newClaimLink(entryId, now);
      await commands.handle(fulfilmentStreamName(entryId), fulfilmentDecider, () => ({
        type: 'ReissueClaimLink',
        claimed: fundraiser.userId !== null,
        claimTokenHash,
        claimExpiresAt,
        removeTokenHash,
        at: now.toISOString(),
      }));
      // Before the mail: an answer that fails here has mailed nobody, and its retry mails once.
      const shortCode = await shortCodeOf(fundraiser.id);
      await sendClaimLink({
        to,
        shirtName: shirt?.name ?? fundraiser.name,
        charityName: charity?.name ?? fundraiser.charityId,
        token,
        removeToken,
      });
      return { entryId, fundraiser, shortCode, size: fulfilment.size };
    },

    /** The token's person, signed in with the address it was mailed to, becomes the owner. */
    /** `claimed` false: the caller's own claim again, answered as the first one was. */
    async claim(token: string, caller: Caller): Promise<{ claimed: boolean; fundraiser: Fundraiser }> {
      if (caller.anonymous) throw new DomainError('forbidden', 'Sign in to claim your shirt');
      const separator = token.lastIndexOf('.');
      const entryId = token.slice(0, separator);
      if (separator < 0 || !ENTRY_ID.test(entryId)) throw new DomainError('not_found', INVALID_CLAIM_LINK);
      const fulfilment = await commands.loadState(fulfilmentStreamName(entryId), fulfilmentDecider);
      if (!fulfilment) throw new DomainError('not_found', INVALID_CLAIM_LINK);
      const claimant = await addressOf(caller.uid);
      return fundraisers.claim({
        fundraiserId: fulfilment.fundraiserId,
        userId: caller.uid,
        claimant,
        tokenHash: linkTokenHash(token),
        offer: fulfilment,
        at: clock().toISOString(),
      });
    },
  };
}
export type FulfilmentUseCases = ReturnType<typeof createFulfilmentUseCases>;
