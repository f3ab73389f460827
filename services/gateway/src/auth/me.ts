import type { meRoutes } from '@qrshirt/contracts';
import type { HandlersOf } from '../http/route-table';

/**
 * Who the caller is, whether the web client should offer the admin area and whether the address
 * still needs verifying. Outside /api/admin on purpose: asking must not be refused, or every
 * signed-in page would log a 403.
 */
export function meHandlers({
  facts,
}: {
  /** What the admin check finds for the caller. */
  facts(this: void, user: Express.User): Promise<{ admin: boolean; emailVerified: boolean }>;
}): HandlersOf<typeof meRoutes> {
  return {
    async getMe({ user }) {
      return { status: 200, body: { uid: user.uid, anonymous: user.anonymous, ...(await facts(user)) } };
    },
  };
}
