import type { claimRoutes } from '@qrshirt/contracts';
import type { FeatureModule } from '../kit/feature-module';
import type { FeatureHandlers } from '../kit/route-handler';
import type { ReadModelStore } from '../ports/read-model-store';
import { createFulfilmentUseCases, type FulfilmentUseCaseDeps } from './fulfilment-use-cases';
import { waitlistEntriesProjector } from './waitlist-entries-projector';
import { createWaitlistEntriesQueries, type WaitlistEntriesReveal } from './waitlist-entries-queries';

/**
 * Fulfilment and claims as the composition root mounts them: operators fulfil waitlist entries
 * (their handlers, with CSV and PDF answers, are the gateway's admin routes), and the entries'
 * people claim the fundraisers made for them. The entries' read model is fulfilment's: it follows
 * each entry to its fundraiser and its claim.
 */
export function fulfilmentModule(
  deps: Omit<FulfilmentUseCaseDeps, 'entries'> & {
    readModels: ReadModelStore;
    /** Opens the entries' sealed names and emails. */
    reveal: WaitlistEntriesReveal;
  },
) {
  const waitlistEntries = createWaitlistEntriesQueries(deps.readModels, { reveal: deps.reveal });
  const useCases = createFulfilmentUseCases({ ...deps, entries: waitlistEntries });
  const handlers: FeatureHandlers<typeof claimRoutes> = {
    async createClaim({ body, user }) {
      const { claimed, fundraiser } = await useCases.claim(body.token, user);
      return { status: claimed ? 201 : 200, body: fundraiser };
    },
  };
  return {
    name: 'fulfilment',
    handlers,
    projectors: [waitlistEntriesProjector],
    queries: { waitlistEntries },
    useCases,
  } satisfies FeatureModule;
}

export type FulfilmentModule = ReturnType<typeof fulfilmentModule>;
