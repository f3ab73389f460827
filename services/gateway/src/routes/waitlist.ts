import type { waitlistRoutes } from '@qrshirt/contracts';
import type { HandlersOf } from '../http/route-table';
import { clientAddress } from './auth-context';
import type { RouteDeps } from './route-deps';

export function waitlistHandlers({ useCases, waitlist }: RouteDeps): HandlersOf<typeof waitlistRoutes> {
  return {
    async getWaitlistStats() {
      return { status: 200, body: await waitlist.getStats() };
    },
    async joinWaitlist({ body, req }) {
      return { status: 201, body: await useCases.waitlist.join(body, clientAddress(req)) };
    },
    async confirmWaitlistEntry({ body }) {
      return { status: 200, body: await useCases.waitlist.confirm(body.token) };
    },
    async removeWaitlistEntry({ body }) {
      return { status: 200, body: await useCases.waitlist.remove(body.token) };
    },
  };
}
