import type { userRoutes } from '@qrshirt/contracts';
import type { HandlersOf } from '../http/route-table';
import { clientAddress } from './auth-context';
import type { RouteDeps } from './route-deps';

export function userHandlers({ useCases }: RouteDeps): HandlersOf<typeof userRoutes> {
  const { users, accountClosing, dataExport, emailChange } = useCases;
  return {
    async syncUser({ body, user }) {
      return { status: 200, body: await users.sync(body, user) };
    },
    async changeEmail({ params, body, user, req }) {
      await emailChange.request(params.id, user, body.email, clientAddress(req));
      return { status: 202 };
    },
    async getUser({ params, user }) {
      return { status: 200, body: await users.get(params.id, user) };
    },
    async updateProfile({ params, body, user }) {
      return { status: 200, body: await users.updateProfile(params.id, body, user) };
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
