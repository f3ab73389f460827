import type { Handlers } from '../http/route-table';
import type { RouteDeps } from './route-deps';

export function adminUserHandlers({ useCases }: RouteDeps): Pick<Handlers, 'eraseUser'> {
  return {
    async eraseUser({ params, user }) {
      await useCases.accountClosing.eraseByAdmin(params.id, user.uid);
      return { status: 204 };
    },
  };
}
