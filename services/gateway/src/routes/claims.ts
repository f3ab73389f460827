import type { Handlers } from '../http/route-table';
import type { RouteDeps } from './route-deps';

export function claimHandlers({ useCases }: RouteDeps): Pick<Handlers, 'createClaim'> {
  return {
    async createClaim({ body, user }) {
      return { status: 201, body: await useCases.fulfilment.claim(body.token, user) };
    },
  };
}
