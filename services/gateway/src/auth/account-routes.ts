import type { userRoutes } from '@qrshirt/contracts';
import type { HandlersOf } from '../http/route-table';
import { clientAddress } from '../http/client-limits';
import type { RouteDeps } from '../route-deps';

type AccountRoutes = Pick<typeof userRoutes, 'changeEmail' | 'closeAccount' | 'exportUserData'>;

/**
 * What reaches the sign-in's credentials and mail: moving to another address (counted against the
 * client's address too), closing an account, its data's download. Profiles are the users module's.
 */
export function accountHandlers({ useCases }: Pick<RouteDeps, 'useCases'>): HandlersOf<AccountRoutes> {
  const { accountClosing, dataExport, emailChange } = useCases;
  return {
    async changeEmail({ params, body, user, req }) {
      await emailChange.request(params.id, user, body.email, clientAddress(req));
      return { status: 202 };
    },
    async closeAccount({ params, body, user }) {
      await accountClosing.closeOwn(params.id, user, body);
      return { status: 204 };
    },
    async exportUserData({ params, user }) {
      return {
        status: 200,
        body: await dataExport.exportOwn(params.id, user),
        headers: {
          'Content-Disposition': `attachment; filename="qrshirts-data-${params.id}.json"`,
          // A person's whole record: no cache along the way may keep a copy.
          'Cache-Control': 'no-store',
        },
      };
    },
  };
}
