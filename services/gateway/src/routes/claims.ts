import type { claimRoutes } from '@qrshirt/contracts';
import type { HandlersOf } from '../http/route-table';
import type { RouteDeps } from './route-deps';

export function claimHandlers({ useCases }: RouteDeps): HandlersOf<typeof claimRoutes> {
  return {
    async createClaim({ body, user }) {
      return { status: 201, body: await useCases.fulfilment.claim(body.token, user) };
    },
  };
}
