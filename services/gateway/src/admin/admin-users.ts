import type { adminUserRoutes } from '@qrshirt/contracts';
import type { HandlersOf } from '../http/route-table';
import type { RouteDeps } from '../route-deps';

export function adminUserHandlers({ useCases }: RouteDeps): HandlersOf<typeof adminUserRoutes> {
  return {
    async eraseUser({ params, user }) {
      await useCases.accountClosing.eraseByAdmin(params.id, user.uid);
      return { status: 204 };
    },
  };
}
