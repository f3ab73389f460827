import type { unsubscribeRoutes } from '@qrshirt/contracts';
import type { HandlersOf } from '../http/route-table';
import type { RouteDeps } from './route-deps';

export function unsubscribeHandlers({ useCases }: RouteDeps): HandlersOf<typeof unsubscribeRoutes> {
  return {
    async unsubscribe({ body }) {
      return { status: 200, body: await useCases.ownerMail.unsubscribe(body.token) };
    },
  };
}
