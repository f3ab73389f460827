import type { AuthSession } from '@qrshirt/contracts';
import type { Clock, UserProfile } from '@qrshirt/core';
import { type Accounts, sessionUser } from './accounts';
import { type CredentialsStore, MAX_SESSION_MS } from '@qrshirt/core';
import type { Identity } from './identity';
import type { JwtTokens } from './jwt-tokens';
import { newSecret, sha256 } from './secrets';

export interface Sessions {
  /** A new session on one device: an access token and the first refresh token of a new family. */
  start(identity: Identity, profile: UserProfile | null): Promise<AuthSession>;
  /** Trades a refresh token for a new session; null when it is unknown, expired, revoked or reused. */
  refresh(refreshToken: string): Promise<AuthSession | null>;
  /** Ends the session the refresh token belongs to. */
  end(refreshToken: string): Promise<void>;
}

/**
 * Refresh tokens are `<family>.<secret>`: the family names the session, the secret is stored
 * hashed. The family lets a reused (rotated) token be recognised without keeping every old one.
 */
function parseRefreshToken(token: string): { family: string; secret: string } | null {
  const [family, secret, ...rest] = token.split('.');
  return family && secret && rest.length === 0 ? { family, secret } : null;
}

export function createSessions(options: {
  tokens: JwtTokens;
  credentials: CredentialsStore;
  accounts: Accounts;
  clock: Clock;
  refreshTtlMs: number;
}): Sessions {
  const { tokens, credentials, accounts, clock, refreshTtlMs } = options;

  function answer(identity: Identity, profile: UserProfile | null, family: string, secret: string): AuthSession {
    return {
      ...tokens.issue(identity),
      refreshToken: `${family}.${secret}`,
      user: sessionUser(identity.uid, identity.anonymous, profile),
    };
  }

  return {
    async start(identity, profile) {
      const family = newSecret();
      const secret = newSecret();
      const now = clock().getTime();
      await credentials.createRefreshFamily(
        family,
        {
          uid: identity.uid,
          anonymous: identity.anonymous,
          tokenHash: sha256(secret),
          expiresAt: now + refreshTtlMs,
          endsAt: now + MAX_SESSION_MS,
        },
        now,
      );
      return answer(identity, profile, family, secret);
    },
    async refresh(refreshToken) {
      const parsed = parseRefreshToken(refreshToken);
      if (!parsed) return null;
      const secret = newSecret();
      const now = clock().getTime();
      const rotation = await credentials.rotateRefreshToken(
        parsed.family,
        sha256(parsed.secret),
        { tokenHash: sha256(secret), expiresAt: now + refreshTtlMs },
        now,
      );
      if (rotation.outcome !== 'rotated') return null;
      const { uid, anonymous } = rotation.session;
      // Anonymous sessions have no stored user (see email-password-sign-in.ts).
      const profile = anonymous ? null : await accounts.profile(uid);
      return answer({ uid, anonymous }, profile, parsed.family, secret);
    },
    async end(refreshToken) {
      const parsed = parseRefreshToken(refreshToken);
      if (parsed) await credentials.deleteRefreshFamily(parsed.family);
    },
  };
}
