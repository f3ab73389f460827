import type { JoinWaitlistAnswer, JoinWaitlistRequest } from '@qrshirt/contracts';
import { charityDecider, charityStreamName } from '../charities/charity-decider';
import type { Clock } from '../clock';
import type { CommandHandler } from '../event-sourcing/command-handler';
import type { EventStore } from '../event-sourcing/event-store';
import { shirtDecider, shirtStreamName } from '../shirts/shirt-decider';
import { createLegacyWaitlists } from './legacy-waitlists';
import { waitlistDecider, waitlistSignupStreamName } from './waitlist-decider';

export interface WaitlistUseCaseDeps {
  commands: CommandHandler;
  /** Read directly for the legacy lists of old logs (see legacy-waitlists.ts). */
  eventStore: EventStore;
  clock: Clock;
  newId: () => string;
}

export function createWaitlistUseCases({ commands, eventStore, clock, newId }: WaitlistUseCaseDeps) {
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
      const { state } = await commands.handle(waitlistSignupStreamName(input.shirtId, signup), waitlistDecider, () => ({
        type: 'JoinWaitlist',
        entryId: newId(),
        shirt,
        charityId: input.selectedCharity,
        charity,
        name: input.name,
        email: input.email,
        size: input.selectedSize,
        earlierEntryId,
        at: clock().toISOString(),
      }));
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
  };
}
export type WaitlistUseCases = ReturnType<typeof createWaitlistUseCases>;
