import type { AuthSession } from '@qrshirt/contracts';
import {
  type Accounts,
  type Clock,
  type CredentialsStore,
  MAX_SESSION_MS,
  sessionUser,
  type UserProfile,
} from '@qrshirt/core';
import type { Identity } from './identity';
import type { JwtTokens } from './jwt-tokens';
import { newSecret, sha256 } from './secrets';

/** A session as issued: the answer's body, and the refresh token that goes into the cookie beside it. */
export interface IssuedSession {
  session: AuthSession;
  refresh: {
    token: string;
    /** Until the token expires (its TTL, capped at the session's end). */
    maxAgeMs: number;
  };
}

export interface Sessions {
  /** A new session on one device: an access token and the first refresh token of a new family. */
  start(identity: Identity, profile: UserProfile | null): Promise<IssuedSession>;
  /** Trades a refresh token for a new session; null when it is unknown, expired, revoked or reused. */
  refresh(refreshToken: string): Promise<IssuedSession | null>;
  /** Ends the session the refresh token belongs to. */
  end(refreshToken: string): Promise<void>;
  /** Ends every session of the account, on every device, and the access tokens issued so far. */
  endAll(uid: string): Promise<void>;
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

  function issued(
    identity: Identity,
    profile: UserProfile | null,
    refresh: { family: string; secret: string; maxAgeMs: number },
  ): IssuedSession {
    return {
      session: { ...tokens.issue(identity), user: sessionUser(identity.uid, identity.anonymous, profile) },
      refresh: { token: `${refresh.family}.${refresh.secret}`, maxAgeMs: refresh.maxAgeMs },
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
      return issued(identity, profile, { family, secret, maxAgeMs: refreshTtlMs });
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
      const { uid, anonymous, expiresAt } = rotation.session;
      // Anonymous sessions have no stored user (see email-password-sign-in.ts).
      const profile = anonymous ? null : await accounts.profile(uid);
      return issued({ uid, anonymous }, profile, { family: parsed.family, secret, maxAgeMs: expiresAt - now });
    },
    async end(refreshToken) {
      const parsed = parseRefreshToken(refreshToken);
      if (parsed) await credentials.deleteRefreshFamily(parsed.family);
    },
    async endAll(uid) {
      await credentials.endSessionsOf(uid, clock().getTime());
    },
  };
}
