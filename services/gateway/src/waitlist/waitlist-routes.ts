import type { waitlistRoutes } from '@qrshirt/contracts';
import type { HandlersOf } from '../http/route-table';
import { clientAddress } from '../http/client-limits';
import type { RouteDeps } from '../route-deps';

/**
 * Joining counts its confirmation mail against the budget of the client's address, which only the
 * request knows. The waitlist's other routes are its module's (core's waitlist/).
 */
export function joinWaitlistHandlers({
  useCases,
}: Pick<RouteDeps, 'useCases'>): HandlersOf<Pick<typeof waitlistRoutes, 'joinWaitlist'>> {
  return {
    async joinWaitlist({ body, req }) {
      return { status: 201, body: await useCases.waitlist.join(body, clientAddress(req)) };
    },
  };
}
