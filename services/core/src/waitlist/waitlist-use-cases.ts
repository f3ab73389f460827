import type { ConfirmedWaitlistEntry, JoinWaitlistAnswer, JoinWaitlistRequest } from '@qrshirt/contracts';
import { charityDecider, charityStreamName } from '../charities/charity-decider';
import type { Clock } from '../clock';
import type { CommandHandler } from '../event-sourcing/command-handler';
import type { EventStore } from '../event-sourcing/event-store';
import { shirtDecider, shirtStreamName } from '../shirts/shirt-decider';
import { createLegacyWaitlists } from './legacy-waitlists';
import { DomainError } from '../event-sourcing/decider';
import { linkTokenHash, newLinkSecret } from '../link-tokens';
import {
  confirmationTokenFor,
  INVALID_CONFIRMATION_LINK,
  signupStreamOfToken,
  waitlistDecider,
  waitlistSignupStreamName,
} from './waitlist-decider';

/** What the confirmation mail says; the gateway renders it and stores it in the outbox. */
export interface WaitlistConfirmationMail {
  to: string;
  name: string;
  shirtName: string;
  size: string;
  /** Goes into the link only: the log keeps its SHA-256. */
  token: string;
}

export interface WaitlistUseCaseDeps {
  commands: CommandHandler;
  /** Read directly for the legacy lists of old logs (see legacy-waitlists.ts). */
  eventStore: EventStore;
  clock: Clock;
  newId: () => string;
  /** Resolves once the mail is stored in the outbox. */
  sendConfirmationLink(this: void, mail: WaitlistConfirmationMail): Promise<void>;
}

export function createWaitlistUseCases({
  commands,
  eventStore,
  clock,
  newId,
  sendConfirmationLink,
}: WaitlistUseCaseDeps) {
  const legacy = createLegacyWaitlists({ eventStore });

  return {
    /**
     * Joining twice with the same email, size and charity answers the first entry again. Each
     * signup is its own stream: the decision reads it, the shirt and the charity, never the list.
     */
    async join(input: JoinWaitlistRequest): Promise<JoinWaitlistAnswer> {
      const signup = { email: input.email, size: input.selectedSize, charityId: input.selectedCharity };
      // The shirt's sizes and the charity's status are checked against the event log, not a
      // read model that may lag behind a shirt or charity created (or approved) a moment ago.
      const [shirt, charity] = await Promise.all([
        commands.loadState(shirtStreamName(input.shirtId), shirtDecider),
        commands.loadState(charityStreamName(input.selectedCharity), charityDecider),
      ]);
      // Only a shirt that exists can have a legacy list (and only those are worth remembering).
      const earlierEntryId = shirt ? await legacy.find(input.shirtId, signup) : null;
      const stream = waitlistSignupStreamName(input.shirtId, signup);
      const token = confirmationTokenFor(stream, newLinkSecret());
      const { state, events } = await commands.handle(stream, waitlistDecider, () => ({
        type: 'JoinWaitlist',
        entryId: newId(),
        shirt,
        charityId: input.selectedCharity,
        charity,
        name: input.name,
        email: input.email,
        size: input.selectedSize,
        earlierEntryId,
        confirmTokenHash: linkTokenHash(token),
        at: clock().toISOString(),
      }));
      // Only a new signup is mailed: a repeated one keeps the link it was sent.
      if (events.length > 0 && shirt) {
        await sendConfirmationLink({
          to: input.email.trim(),
          name: input.name.trim(),
          shirtName: shirt.name,
          size: input.selectedSize.trim(),
          token,
        });
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
      const stream = signupStreamOfToken(token);
      if (!stream) throw new DomainError('not_found', INVALID_CONFIRMATION_LINK);
      const { state } = await commands.handle(stream, waitlistDecider, () => ({
        type: 'ConfirmWaitlistEntry',
        tokenHash: linkTokenHash(token),
        at: clock().toISOString(),
      }));
      const shirt = await commands.loadState(shirtStreamName(state!.shirtId), shirtDecider);
      return { confirmed: true, shirtId: state!.shirtId, shirtName: shirt?.name ?? null, size: state!.size };
    },
  };
}
export type WaitlistUseCases = ReturnType<typeof createWaitlistUseCases>;
