import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * A personal value as the log and the read models keep it: `pd1.<subject>.<iv|ciphertext|tag>`,
 * AES-256-GCM under the subject's key with the subject as associated data, so a value copied
 * under another person's name does not open. The subject is in clear so that a reader knows
 * which key to fetch without knowing the event's type.
 */
const PREFIX = 'pd1.';
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const PERSONAL_DATA_KEY_BYTES = 32;

export const newPersonalDataKey = (): Buffer => randomBytes(PERSONAL_DATA_KEY_BYTES);

export function sealValue(key: Buffer, subject: string, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  cipher.setAAD(Buffer.from(subject, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${PREFIX}${subject}.${Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString('base64url')}`;
}

/** The subject a sealed value belongs to; undefined for any other value (data stored before sealing). */
export function sealedSubject(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith(PREFIX)) return undefined;
  const dot = value.lastIndexOf('.');
  return dot > PREFIX.length ? value.slice(PREFIX.length, dot) : undefined;
}

/** Throws when the value was not sealed under this key and subject, or was altered since. */
export function openValue(key: Buffer, sealed: string): string {
  const subject = sealedSubject(sealed);
  if (subject === undefined) throw new Error('Not a sealed personal value');
  const bytes = Buffer.from(sealed.slice(sealed.lastIndexOf('.') + 1), 'base64url');
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error(`A sealed personal value of ${subject} is truncated`);
  const decipher = createDecipheriv(ALGORITHM, key, bytes.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(subject, 'utf8'));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  return Buffer.concat([
    decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
    decipher.final(),
  ]).toString('utf8');
}
