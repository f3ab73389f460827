import { timingSafeEqual } from 'node:crypto';

/**
 * Unsubscribe links work without signing in, so the token itself proves which account it stops:
 * the account id and a keyed hash of it under the server's secret (`sign`). Nothing is stored,
 * and a link keeps working for as long as the secret does, as a mail's unsubscribe link should.
 */
export function createUnsubscribeTokens(sign: (text: string) => string) {
  const signatureOf = (userId: string) => sign(`daily-summary unsubscribe ${userId}`);
  return {
    tokenFor(userId: string): string {
      return `${Buffer.from(userId).toString('base64url')}.${signatureOf(userId)}`;
    },
    /** The account the token stops the mail of; null for anything we did not sign. */
    userIdOf(token: string): string | null {
      const [encoded, signature, ...rest] = token.split('.');
      if (!encoded || !signature || rest.length > 0) return null;
      const userId = Buffer.from(encoded, 'base64url').toString();
      // Re-encoding must give the same text: another spelling of the id is not a token we made.
      if (!userId || Buffer.from(userId).toString('base64url') !== encoded) return null;
      const expected = Buffer.from(signatureOf(userId));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given) ? userId : null;
    },
  };
}
