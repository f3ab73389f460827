import type { Handlers } from '../http/route-table';
import type { RouteDeps } from './route-deps';

export function analyticsHandlers({ useCases }: RouteDeps): Pick<Handlers, 'recordAnalytics'> {
  return {
    async recordAnalytics({ body }) {
      return { status: 202, body: await useCases.recordAnalytics(body.events) };
    },
  };
}
