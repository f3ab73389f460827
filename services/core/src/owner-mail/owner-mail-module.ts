import type { unsubscribeRoutes } from '@qrshirt/contracts';
import type { FeatureModule } from '../kit/feature-module';
import type { FeatureHandlers } from '../kit/route-handler';
import { createOwnerMailUseCases, type OwnerMailDeps } from './owner-mail-use-cases';

/** Owners' daily summary mail, and the unsubscribe link each one carries. */
export function ownerMailModule(deps: OwnerMailDeps) {
  const useCases = createOwnerMailUseCases(deps);
  const handlers: FeatureHandlers<typeof unsubscribeRoutes> = {
    async unsubscribe({ body }) {
      return { status: 200, body: await useCases.unsubscribe(body.token) };
    },
  };
  return { name: 'owner-mail', handlers, projectors: [], useCases } satisfies FeatureModule;
}

export type OwnerMailModule = ReturnType<typeof ownerMailModule>;
