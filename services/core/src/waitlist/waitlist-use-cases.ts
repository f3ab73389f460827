import {
  type ConfirmedWaitlistEntry,
  type JoinWaitlistAnswer,
  type JoinWaitlistRequest,
  type RemovedWaitlistEntry,
  waitlistDataSubject,
} from '@qrshirt/contracts';
import type { Clock } from '../kit/clock';
import type { CommandHandler } from '../kit/command-handler';
import type { EventStore } from '../kit/event-store';
import type { LookupKeys } from '../kit/lookup-keys';
import { normalEmailAddress } from '../kit/email-address';
import { createLegacyWaitlists } from './legacy-waitlists';
import { DomainError } from '../kit/decider';
import { linkTokenHash } from '../kit/link-tokens';
import type { AddressRecords } from '../ports/address-records';
import type { CatalogueEntries } from '../ports/catalogue';
import { INVALID_REMOVAL_LINK, waitlistRemovalDecider, waitlistRemovalStreamName } from './waitlist-removal-decider';
import {
  confirmationTokenFor,
  INVALID_CONFIRMATION_LINK,
  type JoinWaitlist,
  signupStreamOfToken,
  waitlistDecider,
  waitlistSignupStreamName,
} from './waitlist-decider';

/**
 * What the confirmation mail says; the gateway renders it and stores it in the outbox. Nothing the
 * joiner typed but the address: whoever joins may not own it, and must not write to its owner.
 */
export interface WaitlistConfirmationMail {
  to: string;
  shirtName: string;
  size: string;
  /** Goes into the link only: the log keeps its SHA-256. */
  token: string;
  /** The removal link's token, which every waitlist mail carries; the log keeps its SHA-256 too. */
  removeToken: string;
  /** The joiner's address: the mail counts against its budget and the recipient's. */
  client: string;
}

/** The entry a removal token names, the hashes of the removal links its mails carried, and where they are kept. */
export interface MailedRemovalLinks {
  entryId: string;
  hashes: string[];
  stream: string;
}

export interface WaitlistUseCaseDeps {
  commands: CommandHandler;
  /** The shirt and the charity a signup names, checked as they stand. */
  catalogue: CatalogueEntries;
  /** Read directly for the legacy lists of old logs (see legacy-waitlists.ts). */
  eventStore: EventStore;
  clock: Clock;
  newId: () => string;
  /**
   * Resolves once the mail is stored in the outbox, or once it is known that it will not be: past
   * the budgets of mail anyone may ask for (the recipient's, the client's), nothing is mailed.
   * Asked again for the same token, it stores nothing more (one message per link) and spends
   * nothing of a budget.
   */
  sendConfirmationLink(this: void, mail: WaitlistConfirmationMail): Promise<void>;
  /**
   * A keyed hash under a server secret: the secret part of a link a signup is mailed, made from
   * what names the mailing (see `linksOf`).
   */
  linkSecret(this: void, mailing: string): string;
  /** Erases a removed entry's name and email, wherever the log holds them; false when erased already. */
  personalData: { erase(subject: string): Promise<boolean> };
  /** Forgets the mail to an address: waiting and kept after sending alike. */
  forgetMailTo(this: void, address: string): Promise<unknown>;
  /** Names each signup's stream without its address. */
  lookupKeys: LookupKeys;
  /**
   * The removal links a claim mail carried (`<entryId>.<secret>`), which fulfilment keeps; null
   * when the token is not one. The port by which fulfilment, which depends on the waitlist, answers it.
   */
  claimMailRemovalLinks(this: void, token: string): Promise<MailedRemovalLinks | null>;
  /** Where each signup is noted under its address, for its person's account to find. */
  addressRecords: AddressRecords;
}

export function createWaitlistUseCases({
  commands,
  catalogue,
  eventStore,
  clock,
  newId,
  sendConfirmationLink,
  personalData,
  forgetMailTo,
  lookupKeys,
  claimMailRemovalLinks,
  linkSecret,
  addressRecords,
}: WaitlistUseCaseDeps) {
  const legacy = createLegacyWaitlists({ eventStore, lookupKeys });

  /**
   * The confirmation and removal links of a signup's mailing (its entry and the time it was
   * mailed), derived under the server's secret rather than drawn at random: a join answered 503
   * after its signup was stored but before its mail was (a full disk) can then be retried, and the
   * retry mails the very links whose hashes the log keeps, which the outbox stores once.
   */
  function linksOf(stream: string, entryId: string, at: string) {
    const mailing = `${stream}\u0000${entryId}\u0000${at}`;
    return {
      token: confirmationTokenFor(stream, linkSecret(`${mailing}\u0000confirm`)),
      removeToken: confirmationTokenFor(stream, linkSecret(`${mailing}\u0000remove`)),
    };
  }

  /** Whether the decider, deciding `join` as things stand, would store a new signup. */
  function storesSignup(join: JoinWaitlist, state: Parameters<typeof waitlistDecider.decide>[1]): boolean {
    try {
      return waitlistDecider.decide(join, state).some(({ type }) => type === 'WaitlistJoined');
    } catch (error) {
      // Refused: handling it refuses it again, saying why.
      if (error instanceof DomainError) return false;
      throw error;
    }
  }

  /** Whether the person of the entry (if any) removed it. */
  async function removed(entryId: string | undefined): Promise<boolean> {
    return (
      entryId !== undefined && (await commands.loadState(waitlistRemovalStreamName(entryId), waitlistRemovalDecider))
    );
  }

  /**
   * The entry a removal token names and the hashes of the removal links its mails carried: a
   * signup's mails carry `<shirtId>.<key>.<secret>` (hashes in the signup's stream), a claim mail
   * `<entryId>.<secret>` (in the fulfilment's, which entries of old logs without a signup stream
   * have too). Null when the token cannot name either.
   */
  async function mailedRemovalLinks(token: string): Promise<MailedRemovalLinks | null> {
    const signupStream = signupStreamOfToken(lookupKeys, token);
    if (signupStream) {
      const signup = await commands.loadState(signupStream, waitlistDecider);
      return signup && { entryId: signup.entryId, hashes: signup.removeTokenHashes, stream: signupStream };
    }
    return claimMailRemovalLinks(token);
  }

  /** The address the entry's mails went to, as its stream (read in clear) holds it; null once erased. */
  async function mailedAddress(stream: string): Promise<string | null> {
    for (const event of await eventStore.readStream(stream)) {
      const email = (event.data as { email?: unknown }).email;
      if (typeof email === 'string') return email;
    }
    return null;
  }

  return {
    /**
     * Joining twice with the same email, size and charity answers the first entry again. Each
     * signup is its own stream: the decision reads it, the shirt and the charity, never the list.
     * `client` is the joiner's address, whose mail budget a join that mails counts against.
     */
    async join(input: JoinWaitlistRequest, client: string): Promise<JoinWaitlistAnswer> {
      const signup = { email: input.email, size: input.selectedSize, charityId: input.selectedCharity };
      // The shirt's sizes and the charity's status are checked against the event log, not a
      // read model that may lag behind a shirt or charity created (or approved) a moment ago.
      const stream = waitlistSignupStreamName(lookupKeys, input.shirtId, signup);
      const [shirt, charity, earlier] = await Promise.all([
        catalogue.shirt(input.shirtId),
        catalogue.charity(input.selectedCharity),
        commands.loadState(stream, waitlistDecider),
      ]);
      // Only a shirt that exists can have a legacy list (and only those are worth remembering).
      const earlierEntryId = shirt ? await legacy.find(input.shirtId, signup) : null;
      const earlierRemoved = await removed(earlier?.entryId);
      // A signup still on the list keeps its entry; a first one, or one after a removal, is new.
      const entryId = earlier && !earlierRemoved ? earlier.entryId : newId();
      const at = clock().toISOString();
      const links = linksOf(stream, entryId, at);
      const join: JoinWaitlist = {
        type: 'JoinWaitlist',
        entryId,
        shirt,
        charityId: input.selectedCharity,
        charity,
        name: input.name,
        email: input.email,
        size: input.selectedSize,
        earlierEntryId,
        confirmTokenHash: linkTokenHash(links.token),
        removeTokenHash: linkTokenHash(links.removeToken),
        removed: earlierRemoved,
        at,
      };
      // Noted first, so a signup stored is never one its person's account cannot find. Only a join
      // that would store one is noted: a refused one (no such shirt) or a repeat leaves no note.
      if (storesSignup(join, earlier)) {
        await addressRecords.note(input.email, { kind: 'waitlist-signup', entryId, stream });
      }
      const { state, events } = await commands.handle(stream, waitlistDecider, () => join);
      // The signup's latest links, mailed now or (a repeated join) within the resend interval:
      // mailed again, which the outbox stores only if the first try could not (or the budgets
      // held it back then). Confirmed or removed signups get nothing, nor do links of old logs,
      // which were random. Past a budget the join stands and answers as any other: the joiner
      // learns nothing of what others asked for that address.
      if (shirt && state && !state.confirmed && (events.length > 0 || !earlierRemoved)) {
        const latest = linksOf(stream, state.entryId, state.mailedAt);
        if (linkTokenHash(latest.token) === state.confirmTokenHashes.at(-1)) {
          await sendConfirmationLink({
            to: input.email.trim(),
            shirtName: shirt.name,
            size: input.selectedSize.trim(),
            ...latest,
            client,
          });
        }
      }
      return {
        success: true,
        message: `You're on the waitlist for ${shirt?.name ?? 'this shirt'}!`,
        data: {
          id: state?.entryId ?? earlierEntryId ?? '',
          name: input.name,
          email: input.email,
          selectedSize: input.selectedSize,
          selectedCharity: input.selectedCharity,
          shirtId: input.shirtId,
        },
      };
    },

    /** The link's person says the address is theirs and the signup wanted: only then is it fulfilled. */
    async confirm(token: string): Promise<ConfirmedWaitlistEntry> {
      const stream = signupStreamOfToken(lookupKeys, token);
      if (!stream) throw new DomainError('not_found', INVALID_CONFIRMATION_LINK);
      const signup = await commands.loadState(stream, waitlistDecider);
      const entryRemoved = await removed(signup?.entryId);
      const { state } = await commands.handle(stream, waitlistDecider, () => ({
        type: 'ConfirmWaitlistEntry',
        tokenHash: linkTokenHash(token),
        removed: entryRemoved,
        at: clock().toISOString(),
      }));
      const shirt = await catalogue.shirt(state!.shirtId);
      return { confirmed: true, shirtId: state!.shirtId, shirtName: shirt?.name ?? null, size: state!.size };
    },

    /**
     * The link's person wants off the list: the entry leaves it and its name and email are erased
     * (its key destroyed), in its signup and in its fulfilment alike. A shirt claimed already stays
     * its owner's. Erased before the removal is recorded, so a removal interrupted between the two
     * leaves nothing to read, and opening the link again records it.
     */
    async remove(token: string): Promise<RemovedWaitlistEntry> {
      const mailed = await mailedRemovalLinks(token);
      const tokenHash = linkTokenHash(token);
      if (!mailed?.hashes.includes(tokenHash)) throw new DomainError('not_found', INVALID_REMOVAL_LINK);
      // Read before the key goes: afterwards nothing could say where the mail went.
      const address = await mailedAddress(mailed.stream);
      if (address) await forgetMailTo(address);
      await personalData.erase(waitlistDataSubject(mailed.entryId));
      await commands.handle(waitlistRemovalStreamName(mailed.entryId), waitlistRemovalDecider, () => ({
        type: 'RemoveWaitlistEntry',
        entryId: mailed.entryId,
        tokenHash,
        mailedTokenHashes: mailed.hashes,
        at: clock().toISOString(),
      }));
      return { removed: true };
    },

    /**
     * An account was closed: every entry made with the address it had verified leaves the list and
     * is erased, as its removal link would do (its mail was forgotten with the account's). Entries
     * removed before stay as they are, so closing again finishes what a first try left.
     */
    async removeEntriesMadeWith(email: string): Promise<void> {
      const address = normalEmailAddress(email);
      for (const record of await addressRecords.of(email)) {
        if (record.kind !== 'waitlist-signup') continue;
        const { entryId } = record;
        const joined = (await eventStore.readStream(record.stream)).find(
          ({ type, data }) => type === 'WaitlistJoined' && (data as { entryId?: unknown }).entryId === entryId,
        );
        const madeWith = (joined?.data as { email?: unknown } | undefined)?.email;
        if (typeof madeWith !== 'string' || normalEmailAddress(madeWith) !== address) continue;
        await personalData.erase(waitlistDataSubject(entryId));
        await commands.handle(waitlistRemovalStreamName(entryId), waitlistRemovalDecider, () => ({
          type: 'RemoveEntryOfClosedAccount',
          entryId,
          at: clock().toISOString(),
        }));
      }
    },
  };
}
export type WaitlistUseCases = ReturnType<typeof createWaitlistUseCases>;
