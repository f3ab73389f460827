import type { adminShirtRoutes } from '@qrshirt/contracts';
import type { HandlersOf } from '../http/route-table';
import type { RouteDeps } from './route-deps';

export function adminShirtHandlers({ useCases }: RouteDeps): HandlersOf<typeof adminShirtRoutes> {
  return {
    async adminCreateShirt({ body }) {
      return { status: 201, body: await useCases.shirts.add(body) };
    },
    async adminUpdateShirt({ params, body }) {
      return { status: 200, body: await useCases.shirts.update(params.id, body) };
    },
  };
}
