import type { waitlistRoutes } from '@qrshirt/contracts';
import type { FeatureModule } from '../kit/feature-module';
import type { FeatureHandlers } from '../kit/route-handler';
import type { ReadModelStore } from '../ports/read-model-store';
import { waitlistProjector } from './waitlist-projector';
import { createWaitlistQueries } from './waitlist-queries';
import { createWaitlistUseCases, type WaitlistUseCaseDeps } from './waitlist-use-cases';

/**
 * The waitlist as the composition root mounts it. Joining counts its mail against the budget of
 * the client's address, which only the request knows: that handler is the gateway's, as are the
 * admins' entries, CSV and QR sheets (fulfilment's).
 */
export function waitlistModule(deps: WaitlistUseCaseDeps & { readModels: ReadModelStore }) {
  const useCases = createWaitlistUseCases(deps);
  const waitlist = createWaitlistQueries(deps.readModels);
  const handlers: FeatureHandlers<Omit<typeof waitlistRoutes, 'joinWaitlist'>> = {
    async getWaitlistStats() {
      return { status: 200, body: await waitlist.getStats() };
    },
    async confirmWaitlistEntry({ body }) {
      return { status: 200, body: await useCases.confirm(body.token) };
    },
    async removeWaitlistEntry({ body }) {
      return { status: 200, body: await useCases.remove(body.token) };
    },
  };
  return {
    name: 'waitlist',
    handlers,
    projectors: [waitlistProjector],
    queries: { waitlist },
    useCases,
  } satisfies FeatureModule;
}

export type WaitlistModule = ReturnType<typeof waitlistModule>;
