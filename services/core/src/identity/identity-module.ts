import type { adminUserRoutes, userRoutes } from '@qrshirt/contracts';
import type { FeatureModule } from '../kit/feature-module';
import type { FeatureHandlers } from '../kit/route-handler';
import { createAccountClosing } from './account-closing';
import { createPersonalDataExport } from './personal-data-export';

type IdentityRoutes = Pick<typeof userRoutes, 'closeAccount' | 'exportUserData'> & typeof adminUserRoutes;

/**
 * A person's account as a whole: closing it, an operator's erasure, and the download of what the
 * shop holds about them. What the sign-in owns (its credentials, how a password is checked, mail
 * still waiting) comes in as ports. Moving to another address counts against the client's address
 * and mails a link: its handler is the gateway's (auth/account-routes.ts).
 */
export function identityModule(
  deps: Parameters<typeof createAccountClosing>[0] & Parameters<typeof createPersonalDataExport>[0],
) {
  const useCases = { accountClosing: createAccountClosing(deps), dataExport: createPersonalDataExport(deps) };
  const handlers: FeatureHandlers<IdentityRoutes> = {
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
  return { name: 'identity', handlers, projectors: [], useCases } satisfies FeatureModule;
}

export type IdentityModule = ReturnType<typeof identityModule>;
