import type { userRoutes } from '@qrshirt/contracts';
import type { FeatureModule } from '../kit/feature-module';
import type { FeatureHandlers } from '../kit/route-handler';
import type { ReadModelStore } from '../ports/read-model-store';
import { createUserQueries } from './user-queries';
import { createUserUseCases, type UserUseCaseDeps } from './user-use-cases';
import { usersProjector } from './users-projector';

type UsersRoutes = Pick<typeof userRoutes, 'syncUser' | 'getUser' | 'updateProfile'>;

/**
 * Users' profiles as the composition root mounts them. Closing an account and its data's download
 * are the identity module's; moving to another address mails a link and counts against the
 * client's address, so its handler is the gateway's (auth/account-routes.ts).
 */
export function usersModule(
  deps: UserUseCaseDeps & {
    readModels: ReadModelStore;
    /** Opens the sealed names and emails the read model keeps. */
    personalData: Parameters<typeof createUserQueries>[1];
  },
) {
  const useCases = createUserUseCases(deps);
  const users = createUserQueries(deps.readModels, deps.personalData);
  const handlers: FeatureHandlers<UsersRoutes> = {
    async syncUser({ body, user }) {
      return { status: 200, body: await useCases.sync(body, user) };
    },
    async getUser({ params, user }) {
      return { status: 200, body: await useCases.get(params.id, user) };
    },
    async updateProfile({ params, body, user }) {
      return { status: 200, body: await useCases.updateProfile(params.id, body, user) };
    },
  };
  return {
    name: 'users',
    handlers,
    projectors: [usersProjector],
    queries: { users },
    useCases,
  } satisfies FeatureModule;
}

export type UsersModule = ReturnType<typeof usersModule>;
