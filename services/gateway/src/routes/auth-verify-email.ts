import { verifyEmailRequest } from '@qrshirt/contracts';
import { emailKey } from '@qrshirt/core';
import { Router } from 'express';
import { authenticate, requireSignedIn } from '../auth/authenticate';
import { HttpError } from '../http/http-error';
import { parseInput } from '../http/validate';
import { type AuthContext, limitByAccount, limitByIp } from './auth-context';

/**
 * Address verification: the link's page posts the token (anyone holding the link may, signed in
 * or not: the mailbox is the proof), and a signed-in user may ask for a fresh link. Mounted with
 * the other auth routes, ahead of the app-wide token check, so the resend route checks its own.
 */
export function verifyEmailRoutes({ accounts, limiter, verification, tokens }: AuthContext): Router {
  return Router()
    .post('/api/auth/verify-email', async (req, res) => {
      const { token } = parseInput(verifyEmailRequest, req.body);
      const outcome = await verification.verify(token);
      if (!outcome.verified) throw new HttpError(outcome.status, outcome.reason);
      res.json({ email: outcome.email, emailVerified: true });
    })
    .post('/api/auth/verify-email/resend', authenticate(tokens), requireSignedIn, async (req, res) => {
      const { uid } = req.user!;
      const { email, verified } = await accounts.addressOf(uid);
      if (!email) throw new HttpError(409, 'Your account has no email address to verify');
      if (verified) throw new HttpError(409, 'Your email address is already verified');
      // Shares the budget of every mail a stranger could make us send to this address.
      await limiter.attempt([limitByIp('mail', req), limitByAccount('mail', emailKey(email))]);
      await verification.sendLink(uid, email);
      res.status(202).end();
    });
}
