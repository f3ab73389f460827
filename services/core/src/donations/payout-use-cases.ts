import type { CharityPayouts } from '@qrshirt/contracts';
import type { Caller } from '../kit/caller';
import type { Clock } from '../kit/clock';
import type { CommandHandler } from '../kit/command-handler';
import { DomainError } from '../kit/decider';
import { type CatalogueEntries, isApprovedCharity } from '../ports/catalogue';
import type { PayoutAccounts } from './payout-accounts';
import { type PayoutAccount, payoutAccountDecider, payoutAccountStreamName } from './payout-account-decider';

export interface PayoutUseCaseDeps {
  commands: CommandHandler;
  /** The charity as its stream has it: who submitted it, and whether it is approved. */
  catalogue: Pick<CatalogueEntries, 'charity'>;
  payoutAccounts: PayoutAccounts;
  clock: Clock;
}

/**
 * Who asks about a charity's account, and so where the processor's onboarding sends them back:
 * an admin (the route's guard checked it), or a member, allowed only for a charity they submitted.
 */
export type PayoutsAsker = { page: 'admin' } | { page: 'creator'; caller: Caller };

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
 * that an admin, or the member who submitted the charity, onboards; once the processor lets it
 * take charges, donations to it are paid to it directly.
 */
export function createPayoutUseCases({ commands, catalogue, payoutAccounts, clock }: PayoutUseCaseDeps) {
  async function account(charityId: string): Promise<PayoutAccount | null> {
    const state = await commands.loadState(payoutAccountStreamName(charityId), payoutAccountDecider);
    return state[payoutAccounts.live ? 'live' : 'test'];
  }

  /** The approved charity's name, once the asker may see its account. */
  async function allowedName(charityId: string, asker: PayoutsAsker): Promise<string> {
    const charity = await catalogue.charity(charityId);
    if (!isApprovedCharity(charity)) throw new DomainError('not_found', 'Charity not found (or not approved yet)');
    if (asker.page === 'creator' && charity.createdBy !== asker.caller.uid) {
      throw new DomainError('forbidden', 'Only the member who submitted this charity can connect it to Stripe');
    }
    return charity.name;
  }

  return {
    /** The processor's keys take real money. */
    live: payoutAccounts.live,

    async status(charityId: string, asker: PayoutsAsker): Promise<CharityPayouts> {
      await allowedName(charityId, asker);
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
     * answers a fresh onboarding link (an old one is single use and expires within minutes) that
     * returns to the asker's page.
     */
    async startOnboarding(charityId: string, asker: PayoutsAsker): Promise<{ url: string }> {
      const name = await allowedName(charityId, asker);
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
      return payoutAccounts.onboardingLink({ accountId, charityId, returnTo: asker.page });
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
