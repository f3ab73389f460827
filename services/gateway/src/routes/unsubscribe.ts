import type { Handlers } from '../http/route-table';
import type { RouteDeps } from './route-deps';

export function unsubscribeHandlers({ useCases }: RouteDeps): Pick<Handlers, 'unsubscribe'> {
  return {
    async unsubscribe({ body }) {
      return { status: 200, body: await useCases.ownerMail.unsubscribe(body.token) };
    },
  };
}
