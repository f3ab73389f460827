/**
 * A backup's manifest vouches for every file by its checksum; this vouches for the manifest. An
 * HMAC under BACKUP_HMAC_KEY, a secret kept where the backups are not (the secrets' store the
 * product's environment comes from), is written beside it: whoever can alter a backup, but not
 * read that key, cannot make a restore accept what they changed, even with the checksums redone.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE = 'manifest.hmac';
export const BACKUP_KEY_VARIABLE = 'BACKUP_HMAC_KEY';
const MIN_KEY_LENGTH = 32;

/** The key the environment sets (undefined when none), or why it cannot be used. */
export function backupKey(env: NodeJS.ProcessEnv): { key: string | undefined } | { error: string } {
  const key = env[BACKUP_KEY_VARIABLE]?.trim();
  if (!key) {
    return env.NODE_ENV === 'production'
      ? { error: `${BACKUP_KEY_VARIABLE} is required in production: backups are signed with it` }
      : { key: undefined };
  }
  if (key.length < MIN_KEY_LENGTH) {
    return { error: `${BACKUP_KEY_VARIABLE} must be at least ${MIN_KEY_LENGTH} characters` };
  }
  return { key };
}

/** The signature file's text for the manifest's bytes. */
export function sign(manifest: Buffer | string, key: string): string {
  return `hmac-sha256:${createHmac('sha256', key).update(manifest).digest('hex')}\n`;
}

export function isSignedBy(manifest: Buffer, signature: string, key: string): boolean {
  const expected = Buffer.from(sign(manifest, key).trim());
  const given = Buffer.from(signature.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}
