import { Router } from 'express';
import type { AdminCheck } from '../auth/require-admin';
import { HttpError } from '../http/http-error';

/**
 * Who the caller is, whether the web client should offer the admin area and whether the address
 * still needs verifying. Outside /api/admin on purpose: asking must not be refused, or every
 * signed-in page would log a 403.
 */
export function meRoutes({ facts }: AdminCheck): Router {
  return Router().get('/api/me', async (req, res) => {
    if (!req.user) throw new HttpError(401, 'Authentication required for this request');
    res.json({ uid: req.user.uid, anonymous: req.user.anonymous, ...(await facts(req.user)) });
  });
}
