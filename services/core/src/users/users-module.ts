import type { adminUserRoutes, userRoutes } from '@qrshirt/contracts';
import type { FeatureModule } from '../kit/feature-module';
import type { FeatureHandlers } from '../kit/route-handler';
import type { ReadModelStore } from '../ports/read-model-store';
import { createAccountClosing } from './account-closing';
import { createPersonalDataExport } from './personal-data-export';
import { createUserQueries } from './user-queries';
import { createUserUseCases, type UserUseCaseDeps } from './user-use-cases';
import { usersProjector } from './users-projector';

type UsersRoutes = Pick<
  typeof userRoutes,
  'syncUser' | 'getUser' | 'updateProfile' | 'closeAccount' | 'exportUserData'
> &
  typeof adminUserRoutes;

/**
 * Users and their accounts as the composition root mounts them: profiles, closing an account, an
 * operator's erasure, and the download of what the shop holds about a person. What the sign-in
 * owns (its credentials, how a password is checked, mail still waiting) and what other features
 * keep about the person come in as ports. Moving to another address mails a link and counts
 * against the client's address, so its handler is the gateway's (auth/account-routes.ts).
 */
export function usersModule(
  deps: UserUseCaseDeps &
    Parameters<typeof createAccountClosing>[0] &
    Parameters<typeof createPersonalDataExport>[0] & {
      readModels: ReadModelStore;
      /** Opens the sealed names and emails the read model keeps. */
      personalData: Parameters<typeof createUserQueries>[1];
    },
) {
  const useCases = {
    ...createUserUseCases(deps),
    accountClosing: createAccountClosing(deps),
    dataExport: createPersonalDataExport(deps),
  };
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
    async closeAccount({ params, body, user }) {
      await useCases.accountClosing.closeOwn(params.id, user, body);
      return { status: 204 };
    },
    async exportUserData({ params, user }) {
      return {
        status: 200,
        body: await useCases.dataExport.exportOwn(params.id, user),
        headers: {
          'Content-Disposition': `attachment; filename="qrshirts-data-${params.id}.json"`,
          // A person's whole record: no cache along the way may keep a copy.
          'Cache-Control': 'no-store',
        },
      };
    },
    async eraseUser({ params, user }) {
      await useCases.accountClosing.eraseByAdmin(params.id, user.uid);
      return { status: 204 };
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
