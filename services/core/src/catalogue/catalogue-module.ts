import type { adminCharityRoutes, adminShirtRoutes, charityRoutes, shirtRoutes } from '@qrshirt/contracts';
import { createCharityUseCases } from './charity-use-cases';
import type { Clock } from '../kit/clock';
import type { CommandHandler } from '../kit/command-handler';
import { DomainError } from '../kit/decider';
import type { FeatureModule } from '../kit/feature-module';
import type { FeatureHandlers } from '../kit/route-handler';
import type { ReadModelStore } from '../ports/read-model-store';
import { createShirtUseCases } from './shirt-use-cases';
import { catalogProjector } from './catalog-projector';
import { createCatalogQueries } from './catalog-queries';

export interface CatalogueModuleDeps {
  commands: CommandHandler;
  readModels: ReadModelStore;
  clock: Clock;
  newId: () => string;
}

type CatalogueRoutes = Omit<typeof shirtRoutes, 'listShirts'> &
  Omit<typeof charityRoutes, 'listCharities'> &
  typeof adminCharityRoutes &
  typeof adminShirtRoutes;

/**
 * The shop's catalogue (shirts and charities, and their review by admins) as the composition root
 * mounts it. The two public lists are the gateway's: it writes their JSON once per change of the
 * catalogue, straight into the response.
 */
export function catalogueModule({ commands, readModels, clock, newId }: CatalogueModuleDeps) {
  // One instance per process: it keeps the last answer of each list.
  const catalog = createCatalogQueries(readModels);
  const charities = createCharityUseCases({ commands, charities: catalog, clock, newId });
  const shirts = createShirtUseCases({ commands, clock, newId });
  const handlers: FeatureHandlers<CatalogueRoutes> = {
    async getShirt({ params }) {
      const shirt = await catalog.getShirt(params.id);
      if (!shirt) throw new DomainError('not_found', 'Shirt not found');
      return { status: 200, body: shirt };
    },
    async getCharity({ params, user }) {
      return { status: 200, body: await charities.get(params.id, user) };
    },
    async createCharity({ body, user }) {
      return { status: 201, body: await charities.submit(body, user.uid) };
    },
    async listOwnCharities({ params, user }) {
      return { status: 200, body: { charities: await charities.submittedBy(params.id, user) } };
    },
    async listAdminCharities({ query }) {
      return { status: 200, body: { charities: await catalog.listCharitiesByStatus(query.status) } };
    },
    async approveCharity({ params, user }) {
      return { status: 200, body: await charities.approve(params.id, user.uid) };
    },
    async rejectCharity({ params, body, user }) {
      return { status: 200, body: await charities.reject(params.id, user.uid, body.reason) };
    },
    async adminCreateCharity({ body, user }) {
      return { status: 201, body: await charities.create(body, user.uid) };
    },
    async adminUpdateCharity({ params, body }) {
      return { status: 200, body: await charities.update(params.id, body) };
    },
    async adminCreateShirt({ body }) {
      return { status: 201, body: await shirts.add(body) };
    },
    async adminUpdateShirt({ params, body }) {
      return { status: 200, body: await shirts.update(params.id, body) };
    },
  };
  return {
    name: 'catalogue',
    handlers,
    projectors: [catalogProjector],
    queries: { catalog },
    useCases: { charities, shirts },
  } satisfies FeatureModule;
}

export type CatalogueModule = ReturnType<typeof catalogueModule>;
