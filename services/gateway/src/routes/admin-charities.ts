import type { Handlers } from '../http/route-table';
import type { RouteDeps } from './route-deps';

export function adminCharityHandlers({
  useCases,
}: RouteDeps): Pick<Handlers, 'adminCreateCharity' | 'adminUpdateCharity'> {
  return {
    async adminCreateCharity({ body, user }) {
      return { status: 201, body: await useCases.charities.create(body, user.uid) };
    },
    async adminUpdateCharity({ params, body }) {
      return { status: 200, body: await useCases.charities.update(params.id, body) };
    },
  };
}
