import type { CharityPayouts } from '@qrshirt/contracts';
import type { Clock } from '../kit/clock';
import type { CommandHandler } from '../kit/command-handler';
import { DomainError } from '../kit/decider';
import type { PayoutAccounts } from './payout-accounts';
import { type PayoutAccount, payoutAccountDecider, payoutAccountStreamName } from './payout-account-decider';

export interface PayoutUseCaseDeps {
  commands: CommandHandler;
  /** An approved charity's name; null for any other. */
  charityName(this: void, charityId: string): Promise<string | null>;
  payoutAccounts: PayoutAccounts;
  clock: Clock;
}

/** What Stripe's `account.updated` says of a connected account the product opened. */
export interface PayoutAccountDescription {
  charityId: string;
  accountId: string;
  live: boolean;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  detailsSubmitted: boolean;
  /** Stripe's date of the description. */
  at: string;
}

/**
 * Charities paid by the processor: each approved charity gets a connected account (one per mode)
 * that an admin sends its people to onboard; once the processor lets it take charges, donations to
 * it are paid to it directly.
 */
export function createPayoutUseCases({ commands, charityName, payoutAccounts, clock }: PayoutUseCaseDeps) {
  async function account(charityId: string): Promise<PayoutAccount | null> {
    const state = await commands.loadState(payoutAccountStreamName(charityId), payoutAccountDecider);
    return state[payoutAccounts.live ? 'live' : 'test'];
  }

  async function approvedName(charityId: string): Promise<string> {
    const name = await charityName(charityId);
    if (name === null) throw new DomainError('not_found', 'Charity not found (or not approved yet)');
    return name;
  }

  return {
    /** The processor's keys take real money. */
    live: payoutAccounts.live,

    async status(charityId: string): Promise<CharityPayouts> {
      await approvedName(charityId);
      const found = await account(charityId);
      return {
        accountId: found?.accountId ?? null,
        chargesEnabled: found?.chargesEnabled ?? false,
        payoutsEnabled: found?.payoutsEnabled ?? false,
        detailsSubmitted: found?.detailsSubmitted ?? false,
      };
    },

    /**
     * Opens the charity's account unless it has one, recording it before any link leaves, and
     * answers a fresh onboarding link (an old one is single use and expires within minutes).
     */
    async startOnboarding(charityId: string): Promise<{ url: string }> {
      const name = await approvedName(charityId);
      let accountId = (await account(charityId))?.accountId;
      if (accountId === undefined) {
        const { accountId: openedId } = await payoutAccounts.open({ charityId, name });
        const { state } = await commands.handle(payoutAccountStreamName(charityId), payoutAccountDecider, () => ({
          type: 'OpenPayoutAccount',
          charityId,
          accountId: openedId,
          live: payoutAccounts.live,
          at: clock().toISOString(),
        }));
        accountId = state[payoutAccounts.live ? 'live' : 'test']!.accountId;
      }
      return payoutAccounts.onboardingLink({ accountId, charityId });
    },

    /** Keeps the processor's latest word on an account; an older or foreign one changes nothing. */
    async described(description: PayoutAccountDescription): Promise<boolean> {
      const { events } = await commands.handle(
        payoutAccountStreamName(description.charityId),
        payoutAccountDecider,
        () => ({ type: 'UpdatePayoutAccount', ...description }),
      );
      return events.length > 0;
    },

    /** Where a card donation to the charity is paid: its account once it takes charges, else null. */
    async destination(charityId: string): Promise<string | null> {
      const found = await account(charityId);
      return found?.chargesEnabled ? found.accountId : null;
    },
  };
}
export type PayoutUseCases = ReturnType<typeof createPayoutUseCases>;
