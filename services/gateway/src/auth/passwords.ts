import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { authError } from './auth-errors';

/**
 * scrypt with r=8, p=1 and N from PASSWORD_SCRYPT_N (2^15 unless set: 32 MiB and about 100 ms
 * per hash here), memory-hard so guessing on GPUs stays expensive. The parameters are stored with
 * each hash, so changing N later leaves existing hashes verifiable.
 */
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  // Node refuses above 32 MiB by default, which N=2^15 with r=8 just reaches.
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** Hashes new passwords at the cost `N`; checking a stored hash takes the cost it names. */
export function createPasswordHasher({ N }: { N: number }) {
  const cost = { N, r: BLOCK_SIZE, p: PARALLELISM };

  /** `scrypt$N$r$p$<salt>$<hash>`, base64url. */
  async function hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_LENGTH);
    const key = await derive(password, salt, cost);
    return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  let decoy: Promise<string> | undefined;
  return {
    hash,
    /**
     * Spends the time of a real check when there is no account, so the answer's timing does not
     * tell whether an email is registered.
     */
    async verifyAgainstDecoy(password: string): Promise<void> {
      decoy ??= hash(randomBytes(16).toString('hex'));
      await verifyPassword(password, await decoy);
    },
  };
}
export type PasswordHasher = ReturnType<typeof createPasswordHasher>;

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Refuses, with 401 `wrong-password`, a password that is not the one `stored` hashes. */
export async function confirmPassword(password: string, stored: string): Promise<void> {
  if (!(await verifyPassword(password, stored))) throw authError(401, 'wrong-password');
}
