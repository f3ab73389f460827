import type { claimRoutes } from '@qrshirt/contracts';
import type { FeatureModule } from '../kit/feature-module';
import type { FeatureHandlers } from '../kit/route-handler';
import { createFulfilmentUseCases, type FulfilmentUseCaseDeps } from './fulfilment-use-cases';

/**
 * Fulfilment and claims as the composition root mounts them: operators fulfil waitlist entries
 * (their handlers, with CSV and PDF answers, are the gateway's admin routes), and the entries'
 * people claim the fundraisers made for them.
 */
export function fulfilmentModule(deps: FulfilmentUseCaseDeps) {
  const useCases = createFulfilmentUseCases(deps);
  const handlers: FeatureHandlers<typeof claimRoutes> = {
    async createClaim({ body, user }) {
      return { status: 201, body: await useCases.claim(body.token, user) };
    },
  };
  return { name: 'fulfilment', handlers, projectors: [], useCases } satisfies FeatureModule;
}

export type FulfilmentModule = ReturnType<typeof fulfilmentModule>;
