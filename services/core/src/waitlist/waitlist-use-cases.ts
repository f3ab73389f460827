import type { JoinWaitlistAnswer, JoinWaitlistRequest } from '@qrshirt/contracts';
import { charityDecider, charityStreamName } from '../charities/charity-decider';
import type { Clock } from '../clock';
import type { CommandHandler } from '../event-sourcing/command-handler';
import { shirtDecider, shirtStreamName } from '../shirts/shirt-decider';
import { findWaitlistEntry, waitlistDecider, waitlistStreamName } from './waitlist-decider';

export interface WaitlistUseCaseDeps {
  commands: CommandHandler;
  clock: Clock;
  newId: () => string;
}

export function createWaitlistUseCases({ commands, clock, newId }: WaitlistUseCaseDeps) {
  return {
    /** Joining twice with the same email, size and charity answers the first entry again. */
    async join(input: JoinWaitlistRequest): Promise<JoinWaitlistAnswer> {
      // The shirt's sizes and the charity's existence are checked against the event log, not a
      // read model that may lag behind a shirt or charity created a moment ago.
      const [shirt, charity] = await Promise.all([
        commands.loadState(shirtStreamName(input.shirtId), shirtDecider),
        commands.loadState(charityStreamName(input.selectedCharity), charityDecider),
      ]);
      const { state } = await commands.handle(waitlistStreamName(input.shirtId), waitlistDecider, () => ({
        type: 'JoinWaitlist',
        entryId: newId(),
        shirt,
        charityId: input.selectedCharity,
        charity,
        name: input.name,
        email: input.email,
        size: input.selectedSize,
        at: clock().toISOString(),
      }));
      const entry = findWaitlistEntry(state, {
        email: input.email,
        size: input.selectedSize,
        charityId: input.selectedCharity,
      });
      return {
        success: true,
        message: `You're on the waitlist for ${shirt?.name ?? 'this shirt'}!`,
        data: {
          id: entry?.entryId ?? '',
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
