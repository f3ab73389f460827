import type { Handlers } from '../http/route-table';
import type { RouteDeps } from './route-deps';

export function waitlistHandlers({
  useCases,
  waitlist,
}: RouteDeps): Pick<Handlers, 'joinWaitlist' | 'getWaitlistStats'> {
  return {
    async getWaitlistStats() {
      return { status: 200, body: await waitlist.getStats() };
    },
    async joinWaitlist({ body }) {
      return { status: 201, body: await useCases.waitlist.join(body) };
    },
  };
}
