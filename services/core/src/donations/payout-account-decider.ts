import type { EventOf } from '@qrshirt/contracts';
import type { Decider } from '../kit/decider';

/** The platform opened the charity's connected account with Stripe. */
export interface OpenPayoutAccount {
  type: 'OpenPayoutAccount';
  charityId: string;
  accountId: string;
  live: boolean;
  at: string;
}

/** Stripe described the account (its `account.updated`), dated by Stripe. */
export interface UpdatePayoutAccount {
  type: 'UpdatePayoutAccount';
  charityId: string;
  accountId: string;
  live: boolean;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  detailsSubmitted: boolean;
  at: string;
}

export type PayoutAccountCommand = OpenPayoutAccount | UpdatePayoutAccount;
export type PayoutAccountEvent = EventOf<'CharityPayoutAccountOpened'> | EventOf<'CharityPayoutAccountUpdated'>;

export interface PayoutAccount {
  accountId: string;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  detailsSubmitted: boolean;
  /** Stripe's date of what it last said; null before it said anything. */
  describedAt: string | null;
}

/** One account per mode: a test account takes no live money, and keys may move from test to live. */
export interface PayoutAccountState {
  live: PayoutAccount | null;
  test: PayoutAccount | null;
}

export const payoutAccountStreamName = (charityId: string): string => `charity-payout-account-${charityId}`;

const opened = (accountId: string): PayoutAccount => ({
  accountId,
  chargesEnabled: false,
  payoutsEnabled: false,
  detailsSubmitted: false,
  describedAt: null,
});

const mode = (live: boolean): keyof PayoutAccountState => (live ? 'live' : 'test');

/**
 * A charity's connected accounts: opened once per mode (a second opening, as two admins clicking at
 * once make, keeps the first), described by Stripe's latest word on that account. A word about
 * another account, or older than the one kept, changes nothing: Stripe does not deliver in order.
 */
export const payoutAccountDecider: Decider<PayoutAccountCommand, PayoutAccountEvent, PayoutAccountState> = {
  initialState: () => ({ live: null, test: null }),

  decide(command, state) {
    const account = state[mode(command.live)];
    switch (command.type) {
      case 'OpenPayoutAccount': {
        if (account) return [];
        const { charityId, accountId, live, at } = command;
        return [{ type: 'CharityPayoutAccountOpened', data: { charityId, accountId, live, at } }];
      }
      case 'UpdatePayoutAccount': {
        const { type: _type, ...data } = command;
        // Stripe may describe a new account before its opening is recorded: that opens it.
        if (account && account.accountId !== command.accountId) return [];
        if (account?.describedAt && account.describedAt >= command.at) return [];
        return [{ type: 'CharityPayoutAccountUpdated', data }];
      }
    }
  },

  evolve(state, event) {
    const key = mode(event.data.live);
    switch (event.type) {
      case 'CharityPayoutAccountOpened':
        return state[key] ? state : { ...state, [key]: opened(event.data.accountId) };
      case 'CharityPayoutAccountUpdated': {
        const { accountId, chargesEnabled, payoutsEnabled, detailsSubmitted, at } = event.data;
        return { ...state, [key]: { accountId, chargesEnabled, payoutsEnabled, detailsSubmitted, describedAt: at } };
      }
    }
  },
};
