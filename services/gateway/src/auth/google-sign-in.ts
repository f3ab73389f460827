import type { AuthErrorCode } from '@qrshirt/contracts';
import { type Accounts, endMailedLinks, isValidEmailAddress } from '@qrshirt/core';
import { type Profile, Strategy as GoogleStrategy } from 'passport-google-oauth20';
import type { Clock, CredentialsStore } from '@qrshirt/core';
import { createOAuthStateCookie } from './oauth-state-cookie';

export interface GoogleSettings {
  clientId: string;
  clientSecret: string;
  callbackUrl: string;
  authorizationUrl: string;
  tokenUrl: string;
  userInfoUrl: string;
}

/** Why a Google sign-in was refused, as the spec's auth code the callback hands the client. */
interface GoogleRefusal {
  code: AuthErrorCode;
}

/**
 * Which user a Google account is. Linked before: that user. Otherwise its verified email decides:
 * the account holding that email, or a new one reserving it. An account holding the address
 * without having proved it is theirs may be a squatter's (anyone can sign up with any address):
 * Google's proof wins, so that account is taken over, its password removed and every session of
 * it ended. An email Google has not verified could be anyone's, so it neither links to the account
 * holding it nor reserves it for a new one.
 */
export function createGoogleAccounts(deps: {
  accounts: Accounts;
  credentials: CredentialsStore;
  newId: () => string;
  clock: Clock;
}) {
  const { accounts, credentials, newId, clock } = deps;

  async function userFor(profile: Profile, email: string | null): Promise<string | GoogleRefusal> {
    const linked = await credentials.findIdentity('google', profile.id);
    if (linked) return linked;
    const unverified = profile.emails?.[0]?.value.trim();
    if (!email && unverified && (await accounts.emailHolder(unverified))) return { code: 'email-already-in-use' };
    if (!email) return credentials.linkIdentity('google', profile.id, newId());
    const fresh = newId();
    const uid = await accounts.reserveEmail(email, fresh);
    if (uid !== fresh && !(await accounts.reservationOf(email))?.verified) await takeOver(uid, profile);
    // Two first sign-ins of one Google account at once: the first link wins, both get its user.
    return credentials.linkIdentity('google', profile.id, uid);
  }

  /**
   * Whoever set the account's password never proved the address: they lose the account, every link
   * they had mailed (a change of address's would take it back), and the name and photo they gave it
   * make way for the Google account's.
   */
  async function takeOver(uid: string, profile: Profile): Promise<void> {
    await credentials.deletePasswordHash(uid);
    await credentials.endSessionsOf(uid, clock().getTime());
    await endMailedLinks(credentials, uid);
    // One never registered (its sign-up stopped after the reservation) is registered with them next.
    if (!(await accounts.profile(uid))) return;
    await accounts.updateProfile(uid, {
      displayName: profile.displayName || null,
      photoURL: profile.photos?.[0]?.value ?? null,
    });
  }

  return async function resolve(profile: Profile): Promise<string | GoogleRefusal> {
    const email = verifiedEmail(profile);
    const uid = await userFor(profile, email);
    if (typeof uid !== 'string') return uid;
    await accounts.signedIn(uid, 'google', {
      email,
      displayName: profile.displayName || null,
      photoURL: profile.photos?.[0]?.value ?? null,
    });
    // Google verified the address: if this account holds it, it counts as proved.
    const reservation = email ? await accounts.reservationOf(email) : null;
    if (email && reservation?.userId === uid && !reservation.verified) await accounts.verifyEmail(email, uid, 'google');
    return uid;
  };
}

function verifiedEmail(profile: Profile): string | null {
  const given = profile.emails?.[0];
  const address = given?.value.trim();
  // Google's userinfo answers a boolean; the string form is what some of its older endpoints send.
  const verified = String(given?.verified) === 'true';
  return address && verified && isValidEmailAddress(address) ? address : null;
}

export function createGoogleStrategy(
  settings: GoogleSettings,
  resolve: (profile: Profile) => Promise<string | GoogleRefusal>,
) {
  return new GoogleStrategy(
    {
      clientID: settings.clientId,
      clientSecret: settings.clientSecret,
      callbackURL: settings.callbackUrl,
      authorizationURL: settings.authorizationUrl,
      tokenURL: settings.tokenUrl,
      userProfileURL: settings.userInfoUrl,
      scope: ['openid', 'email', 'profile'],
      store: createOAuthStateCookie(),
    },
    (_accessToken, _refreshToken, profile, done) => {
      resolve(profile).then(
        (outcome) =>
          typeof outcome === 'string' ? done(null, { uid: outcome, anonymous: false }) : done(null, false, outcome),
        done,
      );
    },
  );
}
