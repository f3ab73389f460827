import { randomInt, randomUUID } from 'node:crypto';
import type { PhoneConfirmRequest, PhoneStartAnswer, PhoneStartRequest } from '@qrshirt/contracts';
import { type Accounts, type Clock, type CredentialsStore, type LookupKeys, noProfile } from '@qrshirt/core';
import { authError } from './auth-errors';
import type { SmsSender } from '../mail/message-senders';
import { limitByAccount, limitByIp, type RateLimiter } from './rate-limiter';
import { equalSecrets } from './secrets';
import type { IssuedSession, Sessions } from './sessions';

const E164 = /^\+[1-9]\d{6,14}$/;
const CODE_TTL_MS = 10 * 60_000;
const MAX_TRIES = 5;

interface PhoneSignInDeps {
  accounts: Accounts;
  sessions: Sessions;
  credentials: CredentialsStore;
  limiter: RateLimiter;
  sms: SmsSender;
  /** Keyed hash for the codes. */
  codeHash: (text: string) => string;
  /** The number's key: its account's identity, and its budget of texts. */
  lookupKeys: Pick<LookupKeys, 'phone'>;
  clock: Clock;
  newId: () => string;
}

/**
 * Sign-in with a code sent by SMS. The code is stored as a keyed hash bound to its verification,
 * lives ten minutes and allows five tries; the number itself is kept only as its lookup key, which
 * is also the account's identity.
 */
export function createPhoneSignIn(deps: PhoneSignInDeps) {
  const { accounts, sessions, credentials, limiter, sms, codeHash, lookupKeys, clock, newId } = deps;
  const hashCode = (verificationId: string, code: string) => codeHash(`${verificationId}:${code}`);
  return {
    /** Texts a code to the number; `client` is the caller's address. */
    async start({ phoneNumber }: PhoneStartRequest, client: string): Promise<PhoneStartAnswer> {
      const number = phoneNumber.replace(/[\s().-]/g, '');
      if (!E164.test(number)) throw authError(400, 'invalid-phone-number');
      const phoneKey = lookupKeys.phone(number);
      // Every start sends an SMS, which costs money and bothers the number's owner: all count.
      await limiter.attempt([limitByIp('phone-start', client), limitByAccount('phone-start', phoneKey)]);
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
      return { verificationId };
    },

    /** Signs in the number's account (a new one the first time); `client` is the caller's address. */
    async confirm({ verificationId, code }: PhoneConfirmRequest, client: string): Promise<IssuedSession> {
      // Per number, the start limit bounds the guesses: ten codes of five tries each per window.
      const byIp = [limitByIp('phone-confirm', client)];
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
      return sessions.start({ uid, anonymous: false }, user);
    },
  };
}
export type PhoneSignIn = ReturnType<typeof createPhoneSignIn>;
