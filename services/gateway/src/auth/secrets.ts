import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 random bits, URL-safe: refresh tokens, reset tokens, exchange codes, OAuth state. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** For secrets with 256 bits of entropy a plain hash is enough: nobody can guess them back. */
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A secret of its own for one purpose, derived from `secret` (HKDF): the same in every process that has it. */
export const deriveSecret = (secret: string, purpose: string): string =>
  Buffer.from(hkdfSync('sha256', secret, '', `qrshirt ${purpose}`, 32)).toString('hex');

/**
 * Keyed hashing for low-entropy secrets (6-digit codes), which a plain hash would not protect: a
 * copy of the credentials store without the key does not reveal them.
 */
export function createKeyedHash(secret: string, purpose: string): (text: string) => string {
  const key = Buffer.from(deriveSecret(secret, purpose), 'hex');
  return (text) => createHmac('sha256', key).update(text).digest('hex');
}

export function equalSecrets(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
