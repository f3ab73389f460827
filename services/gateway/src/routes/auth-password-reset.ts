import { MIN_PASSWORD_LENGTH, passwordResetConfirmRequest, passwordResetRequest } from '@qrshirt/contracts';
import { emailKey, isValidEmailAddress } from '@qrshirt/core';
import { Router } from 'express';
import { authError } from '../auth/auth-errors';
import { hashPassword } from '../auth/passwords';
import { newSecret, sha256 } from '../auth/secrets';
import { parseInput } from '../http/validate';
import { type AuthContext, limitByAccount, limitByIp } from './auth-context';

const RESET_TTL_MS = 60 * 60_000;

/**
 * Reset by an emailed link. The request is answered the same whether or not the address has an
 * account, and before the link is made and sent, so neither the answer nor its timing tells.
 */
export function passwordResetRoutes(context: AuthContext): Router {
  const { accounts, credentials, limiter, email: mailer, publicBaseUrl, clock } = context;

  async function sendResetLink(email: string): Promise<void> {
    const uid = await accounts.emailHolder(email);
    if (!uid) return;
    const token = newSecret();
    const now = clock().getTime();
    await credentials.addOneTimeCode('password-reset', sha256(token), { uid, expiresAt: now + RESET_TTL_MS }, now);
    await mailer.sendEmail({
      to: email,
      subject: 'Reset your QR Shirts password',
      text: `Someone asked to reset the password of your QR Shirts account. To choose a new one, open\n\n${publicBaseUrl}/signin#reset=${token}\n\nThe link works once, within an hour. If it was not you, ignore this email.`,
    });
  }

  return Router()
    .post('/api/auth/password-reset', async (req, res) => {
      const email = parseInput(passwordResetRequest, req.body).email.trim();
      if (!isValidEmailAddress(email)) throw authError(400, 'invalid-email');
      // Every request may send an email: all count, success or not.
      await limiter.attempt([limitByIp('password-reset', req), limitByAccount('password-reset', emailKey(email))]);
      res.status(202).end();
      sendResetLink(email).catch((error: unknown) => req.log.error({ err: error }, 'password reset email not sent'));
    })
    .post('/api/auth/password-reset/confirm', async (req, res) => {
      const { token, password } = parseInput(passwordResetConfirmRequest, req.body);
      if (password.length < MIN_PASSWORD_LENGTH) throw authError(400, 'weak-password');
      const byIp = [limitByIp('password-reset-confirm', req)];
      await limiter.attempt(byIp);
      const hash = await hashPassword(password);
      const uid = await credentials.takeOneTimeCode('password-reset', sha256(token), clock().getTime());
      if (!uid) throw authError(400, 'code-expired');
      await credentials.setPasswordHash(uid, hash);
      // Whoever knew the old password may hold sessions: they end with it.
      await credentials.deleteRefreshFamiliesOf(uid);
      await limiter.forgive(byIp);
      res.status(204).end();
    });
}
