import type { analyticsRoutes } from '@qrshirt/contracts';
import type { HandlersOf } from '../http/route-table';
import type { RouteDeps } from './route-deps';

export function analyticsHandlers({ useCases }: RouteDeps): HandlersOf<typeof analyticsRoutes> {
  return {
    async recordAnalytics({ body }) {
      return { status: 202, body: await useCases.recordAnalytics(body.events) };
    },
  };
}
