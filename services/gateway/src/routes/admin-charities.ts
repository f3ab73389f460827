import type { adminCharityRoutes } from '@qrshirt/contracts';
import type { HandlersOf } from '../http/route-table';
import type { RouteDeps } from './route-deps';

/** The catalogue's charities: an admin's are in the shop at once, a member's wait for review here. */
export function adminCharityHandlers({ catalog, useCases }: RouteDeps): HandlersOf<typeof adminCharityRoutes> {
  return {
    async listAdminCharities({ query }) {
      return { status: 200, body: { charities: await catalog.listCharitiesByStatus(query.status) } };
    },
    async approveCharity({ params, user }) {
      return { status: 200, body: await useCases.charities.approve(params.id, user.uid) };
    },
    async rejectCharity({ params, body, user }) {
      return { status: 200, body: await useCases.charities.reject(params.id, user.uid, body.reason) };
    },
    async adminCreateCharity({ body, user }) {
      return { status: 201, body: await useCases.charities.create(body, user.uid) };
    },
    async adminUpdateCharity({ params, body }) {
      return { status: 200, body: await useCases.charities.update(params.id, body) };
    },
  };
}
