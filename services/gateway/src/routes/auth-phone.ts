import { randomInt, randomUUID } from 'node:crypto';
import { noProfile } from '../auth/accounts';
import { authError } from '../auth/auth-errors';
import { limitByAccount, limitByIp } from '../auth/rate-limiter';
import { equalSecrets, sha256 } from '../auth/secrets';
import { type Handlers, unavailable } from '../http/route-table';
import { type AuthContext, clientAddress } from './auth-context';

const E164 = /^\+[1-9]\d{6,14}$/;
const CODE_TTL_MS = 10 * 60_000;
const MAX_TRIES = 5;

const notConfigured = unavailable('Phone sign-in is not configured');

/**
 * Sign-in with a code sent by SMS. The code is stored as a keyed hash bound to its verification,
 * lives ten minutes and allows five tries; the number itself is kept only as a hash, which is
 * also the account's key.
 */
export function phoneHandlers(context: AuthContext): Pick<Handlers, 'startPhoneSignIn' | 'confirmPhoneSignIn'> {
  const { credentials, limiter, sms, codeHash, accounts, sessions, clock, newId, phoneSignIn } = context;
  const hashCode = (verificationId: string, code: string) => codeHash(`${verificationId}:${code}`);
  if (!phoneSignIn) return { startPhoneSignIn: notConfigured, confirmPhoneSignIn: notConfigured };
  return {
    async startPhoneSignIn({ body: { phoneNumber }, req }) {
      const number = phoneNumber.replace(/[\s().-]/g, '');
      if (!E164.test(number)) throw authError(400, 'invalid-phone-number');
      const phoneKey = sha256(number);
      // Every start sends an SMS, which costs money and bothers the number's owner: all count.
      await limiter.attempt([limitByIp('phone-start', clientAddress(req)), limitByAccount('phone-start', phoneKey)]);
      const verificationId = randomUUID();
      const code = String(randomInt(1_000_000)).padStart(6, '0');
      const now = clock().getTime();
      await credentials.addPhoneVerification(
        {
          id: verificationId,
          phoneKey,
          codeHash: hashCode(verificationId, code),
          expiresAt: now + CODE_TTL_MS,
          tries: 0,
        },
        now,
      );
      await sms.sendSms({ to: number, text: `Your QR Shirts sign-in code is ${code}. It expires in 10 minutes.` });
      return { status: 202, body: { verificationId } };
    },
    async confirmPhoneSignIn({ body: { verificationId, code }, req }) {
      // Per number, the start limit bounds the guesses: ten codes of five tries each per window.
      const byIp = [limitByIp('phone-confirm', clientAddress(req))];
      await limiter.attempt(byIp);
      const verification = await credentials.tryPhoneVerification(verificationId, MAX_TRIES);
      if (!verification || verification.expiresAt <= clock().getTime()) throw authError(400, 'code-expired');
      if (!equalSecrets(hashCode(verificationId, code.trim()), verification.codeHash)) {
        throw authError(400, 'invalid-verification-code');
      }
      // A second confirm racing this one finds the code used.
      if (!(await credentials.deletePhoneVerification(verificationId))) throw authError(400, 'code-expired');
      await limiter.forgive(byIp);
      const uid = await credentials.linkIdentity('phone', verification.phoneKey, newId());
      const user = await accounts.signedIn(uid, 'phone', noProfile);
      return { status: 200, body: await sessions.start({ uid, anonymous: false }, user) };
    },
  };
}
