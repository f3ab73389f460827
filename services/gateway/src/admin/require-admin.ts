import { type Accounts, sameEmailAddress } from '@qrshirt/core';
import type { RequestHandler } from 'express';
import { authenticationRequired, HttpError } from '../http/http-error';

export interface AdminCheck {
  /** Whether the caller is an admin, and whether their address is verified (GET /api/me). */
  facts(this: void, user: Express.User): Promise<{ admin: boolean; emailVerified: boolean }>;
  /** Guards /api/admin/*: 401 without a token, 403 for anyone but an admin. */
  requireAdmin: RequestHandler;
}

/**
 * An admin is a signed-in account an operator named one (`npm run admin -- grant EMAIL`), or one
 * whose email is listed in ADMIN_EMAILS, which signed up with that address, holds it (its
 * reservation names this user) and proved it is theirs (followed a mailed link, or Google verified
 * it). The profile's email alone is not proof: a user can sync any address into their profile, and
 * anyone can sign up with an address that is not theirs. Nor is a change of address: the listed
 * address's owner, confirming a link another account asked for, would hand that account the rights.
 * Read from the event log, so a change takes effect on the next request.
 */
export function createAdminCheck({
  adminEmails,
  accounts,
}: {
  adminEmails: readonly string[];
  accounts: Accounts;
}): AdminCheck {
  const admins = new Set(adminEmails.map((email) => email.trim().toLowerCase()));

  async function facts({ uid, anonymous }: Express.User) {
    if (anonymous) return { admin: false, emailVerified: false };
    const [user, { email, verified }] = await Promise.all([accounts.profile(uid), accounts.addressOf(uid)]);
    const listed =
      verified &&
      email !== null &&
      admins.has(email.trim().toLowerCase()) &&
      sameEmailAddress(user?.registeredEmail ?? null, email);
    return { admin: user?.closed === false && (user.adminGranted || listed), emailVerified: verified };
  }

  return {
    facts,
    requireAdmin: async (req, _res, next) => {
      if (!req.user) throw authenticationRequired();
      if (!(await facts(req.user)).admin) throw new HttpError(403, 'Only administrators can do this');
      next();
    },
  };
}
