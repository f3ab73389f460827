import {
  type CommandHandler,
  emailReservationDecider,
  emailReservationStreamName,
  userDecider,
  userStreamName,
} from '@qrshirt/core';
import type { RequestHandler } from 'express';
import { HttpError } from '../http/http-error';

export interface AdminCheck {
  isAdmin(user: Express.User): Promise<boolean>;
  /** Guards /api/admin/*: 401 without a token, 403 for anyone but an admin. */
  requireAdmin: RequestHandler;
}

/**
 * An admin is a signed-in account whose email is listed in ADMIN_EMAILS, and which holds that
 * address (its reservation names this user). The profile's email alone is not proof: a user can
 * sync any address into their profile, but only signing up with it reserves it.
 * Both are read from the event log, so a change takes effect on the next request.
 */
export function createAdminCheck({ adminEmails, commands }: { adminEmails: readonly string[]; commands: CommandHandler }): AdminCheck {
  const admins = new Set(adminEmails.map((email) => email.trim().toLowerCase()));

  async function isAdmin({ uid, anonymous }: Express.User): Promise<boolean> {
    if (anonymous || admins.size === 0) return false;
    const email = (await commands.loadState(userStreamName(uid), userDecider))?.email?.trim().toLowerCase();
    if (!email || !admins.has(email)) return false;
    const holder = await commands.loadState(emailReservationStreamName(email), emailReservationDecider);
    return holder?.userId === uid;
  }

  return {
    isAdmin,
    requireAdmin: async (req, _res, next) => {
      if (!req.user) throw new HttpError(401, 'Authentication required for this request');
      if (!(await isAdmin(req.user))) throw new HttpError(403, 'Only administrators can do this');
      next();
    },
  };
}
