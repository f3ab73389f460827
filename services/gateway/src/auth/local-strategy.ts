import { Strategy as LocalStrategy } from 'passport-local';
import type { Accounts, CredentialsStore } from '@qrshirt/core';
import { type PasswordHasher, verifyPassword } from './passwords';

/** Email and password: the user whose reserved email and stored password hash match, else none. */
export function createLocalStrategy({
  accounts,
  credentials,
  passwords,
}: {
  accounts: Accounts;
  credentials: CredentialsStore;
  passwords: PasswordHasher;
}) {
  async function verify(email: string, password: string): Promise<string | null> {
    const uid = await accounts.emailHolder(email.trim());
    const hash = uid && (await credentials.passwordHash(uid));
    if (!uid || !hash) {
      await passwords.verifyAgainstDecoy(password);
      return null;
    }
    return (await verifyPassword(password, hash)) ? uid : null;
  }
  return new LocalStrategy(
    { usernameField: 'email', passwordField: 'password', session: false },
    (email, password, done) => {
      verify(email, password).then((uid) => done(null, uid ? { uid, anonymous: false } : false), done);
    },
  );
}
