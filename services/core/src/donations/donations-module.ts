import type { charityPayoutRoutes, donateRoutes } from '@qrshirt/contracts';
import type { FeatureModule } from '../kit/feature-module';
import type { FeatureHandlers } from '../kit/route-handler';
import { createDonationUseCases, type DonationUseCaseDeps } from './donation-use-cases';
import { createDonorAddresses, type DonorAddressDeps } from './donor-addresses';
import type { PayoutAccounts } from './payout-accounts';
import { createPayoutUseCases } from './payout-use-cases';

/**
 * The donations feature as the composition root mounts it: its use cases, and the handlers of its
 * routes that need nothing but them. The processor's webhook checks a signature over the raw
 * bytes and the demo processor sends mail: their handlers are the gateway's (donations/donation-routes.ts).
 */
export function donationsModule({
  payoutAccounts,
  eventStore,
  personalData,
  ...deps
}: Omit<DonationUseCaseDeps, 'payouts'> & Omit<DonorAddressDeps, 'commands'> & { payoutAccounts: PayoutAccounts }) {
  const payouts = createPayoutUseCases({ ...deps, payoutAccounts });
  const useCases = createDonationUseCases({ ...deps, payouts });
  const donors = createDonorAddresses({
    commands: deps.commands,
    eventStore,
    personalData,
    addressRecords: deps.addressRecords,
  });
  const handlers: FeatureHandlers<typeof donateRoutes & typeof charityPayoutRoutes> = {
    async donate({ params, body, headers }) {
      const { created, donation } = await useCases.report(params.id, body, headers['idempotency-key']);
      return { status: created ? 201 : 200, body: donation };
    },
    async createCheckout({ params, body, headers }) {
      return { status: 200, body: await useCases.checkout(params.id, body, headers['idempotency-key']) };
    },
    async getCharityPayouts({ params }) {
      return { status: 200, body: await payouts.status(params.id, { page: 'admin' }) };
    },
    async startCharityPayouts({ params }) {
      return { status: 200, body: await payouts.startOnboarding(params.id, { page: 'admin' }) };
    },
    async getOwnCharityPayouts({ params, user }) {
      return { status: 200, body: await payouts.status(params.id, { page: 'creator', caller: user }) };
    },
    async startOwnCharityPayouts({ params, user }) {
      return { status: 200, body: await payouts.startOnboarding(params.id, { page: 'creator', caller: user }) };
    },
  };
  return {
    name: 'donations',
    handlers,
    projectors: [],
    useCases: { ...useCases, payouts, donors },
  } satisfies FeatureModule;
}

export type DonationsModule = ReturnType<typeof donationsModule>;
