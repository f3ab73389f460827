import type { Handlers } from '../http/route-table';
import type { RouteDeps } from './route-deps';

export function adminShirtHandlers({ useCases }: RouteDeps): Pick<Handlers, 'adminCreateShirt' | 'adminUpdateShirt'> {
  return {
    async adminCreateShirt({ body }) {
      return { status: 201, body: await useCases.shirts.add(body) };
    },
    async adminUpdateShirt({ params, body }) {
      return { status: 200, body: await useCases.shirts.update(params.id, body) };
    },
  };
}
