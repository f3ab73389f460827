import { z } from 'zod';
import { E164_AS_SENT, EMAIL_AS_SENT } from './text-patterns';
import { defineRoutes, invalidInput as invalid, unauthenticated } from '../route';
import { errorAnswer } from './errors';

/**
 * Spec section 8: every auth failure carries one of these codes in `{ error, code }`, and `error`
 * is the message the client shows for it. The server and the web client both read this table.
 */
/** GET /api/me: who the caller is, and whether the admin area is theirs. */
export const me = z
  .object({
    uid: z.string(),
    anonymous: z.boolean(),
    admin: z.boolean(),
    /** Whether the account's address was verified by a mailed link (or by Google); false for anonymous. */
    emailVerified: z.boolean(),
  })
  .meta({ id: 'Me' });
export type Me = z.infer<typeof me>;

export const authErrorMessages = {
  'email-already-in-use': 'An account with this email already exists. Please try signing in instead.',
  'weak-password': 'Password is too weak. Please choose a stronger password with at least 6 characters.',
  'invalid-email': 'Please enter a valid email address.',
  'user-disabled': 'This account has been disabled. Please contact support.',
  'user-not-found': 'No account found with this email. Please check your email or sign up.',
  'wrong-password': 'Incorrect password. Please try again.',
  'invalid-credential': 'Invalid email or password. Please check your credentials and try again.',
  'too-many-requests': 'Too many failed attempts. Please try again later.',
  'network-request-failed': 'Network error. Please check your connection and try again.',
  'popup-closed-by-user': 'Sign-in was cancelled. Please try again.',
  'cancelled-popup-request': 'Sign-in was cancelled. Please try again.',
  'popup-blocked': 'Popup was blocked by your browser. Please allow popups and try again.',
  'invalid-phone-number': 'Please enter a valid phone number with country code (e.g., +1234567890).',
  'invalid-verification-code': 'Invalid verification code. Please check the code and try again.',
  'code-expired': 'Verification code has expired. Please request a new code.',
} as const;
export type AuthErrorCode = keyof typeof authErrorMessages;
export const unexpectedAuthErrorMessage = 'An unexpected error occurred. Please try again.';

/** The message for a code, the spec's fallback for any code it does not list. */
export function authErrorMessage(code: string | undefined): string {
  return (code && (authErrorMessages as Record<string, string>)[code]) || unexpectedAuthErrorMessage;
}

/**
 * The refresh token's cookie: opaque, long-lived, single-use, HttpOnly, so no script of the page
 * can read it (the access token, in memory, is worth 15 minutes; this one up to 90 days).
 * POST /api/auth/refresh trades it for a new session and a new cookie.
 */
export const REFRESH_COOKIE = 'qrshirt_refresh';
/**
 * The meta tag a gateway with ANONYMOUS_AUTH=false writes into every page it serves, content
 * "false": its client then starts no anonymous session and sends no anonymous header. One build
 * serves either setting; a page without the tag (Vite's dev server) keeps anonymous sessions.
 */
export const ANONYMOUS_AUTH_META = 'qrshirt-anonymous-auth';
/**
 * The meta tag a gateway in demo mode (no live processor: the demo processor's or Stripe's test
 * money only) writes into every page it serves, content "true": owners then see the test figures,
 * labelled. Without it (live keys, Vite's dev server) the pages show live money only.
 */
export const DEMO_MODE_META = 'qrshirt-demo-mode';
/**
 * The narrowest path that covers both routes that read the cookie, refresh and sign-out, rather
 * than moving sign-out under /api/auth/refresh: within one origin a path is no boundary (RFC 6265,
 * 8.6), it only keeps the cookie off requests that have no use for it (every other API call, the
 * pages, the scans), and /api/auth does that as well, for the price of the sign-in routes beside
 * them seeing it, without renaming a route every client calls.
 */
export const REFRESH_COOKIE_PATH = '/api/auth';
/**
 * Any text: a Cookie header cannot carry every string faithfully, so a length or pattern here
 * could not be enforced as documented; whatever is not a live token is refused as such (401).
 */
export const refreshCookie = z.object({ [REFRESH_COOKIE]: z.string().optional() });

/**
 * Given to every successful sign-in, sign-up, anonymous session, refresh and code exchange,
 * with the refresh token in the `REFRESH_COOKIE` cookie beside it, never in the body.
 */
export const authSession = z
  .object({
    /** Short-lived JWT for `Authorization: Bearer`; its subject is `user.uid`. */
    accessToken: z.string(),
    /** Seconds until the access token expires. */
    expiresIn: z.number().int().positive(),
    user: z.object({
      uid: z.string(),
      anonymous: z.boolean(),
      displayName: z.string().nullable(),
      email: z.string().nullable(),
      photoURL: z.string().nullable(),
    }),
  })
  .meta({ id: 'AuthSession' });
export type AuthSession = z.infer<typeof authSession>;

/**
 * Request bodies are loose on purpose (plain strings): the server answers a malformed email or a
 * short password with the spec's auth code, not with a generic validation error.
 */
export const MIN_PASSWORD_LENGTH = 6;

/**
 * Characters as a person counts them (code points): an emoji is one, not the two UTF-16 units
 * JavaScript's `length` counts, and the OpenAPI `minLength` counts code points too.
 */
export const isTooShortPassword = (password: string): boolean => [...password].length < MIN_PASSWORD_LENGTH;

/*
 * The addresses, passwords and numbers below are checked by the sign-in code, whose refusals carry
 * the spec's messages and auth codes; their patterns and lengths are documented here all the same.
 */
const email = z.string().max(320).meta({ pattern: EMAIL_AS_SENT });
const newPassword = z.string().max(1024).meta({ minLength: MIN_PASSWORD_LENGTH });

export const signUpRequest = z.object({
  email,
  password: newPassword,
  displayName: z.string().max(200),
});
export type SignUpRequest = z.infer<typeof signUpRequest>;

export const signInRequest = z.object({ email, password: z.string().max(1024) });
export type SignInRequest = z.infer<typeof signInRequest>;

/** Google's callback hands the browser a one-time code (in the URL fragment) to trade here. */
export const exchangeCodeRequest = z.object({ code: z.string().min(1).max(512) });
export type ExchangeCodeRequest = z.infer<typeof exchangeCodeRequest>;

export const phoneStartRequest = z.object({ phoneNumber: z.string().max(32).meta({ pattern: E164_AS_SENT }) });
export type PhoneStartRequest = z.infer<typeof phoneStartRequest>;
export const phoneStartAnswer = z.object({ verificationId: z.string() }).meta({ id: 'PhoneVerification' });
export type PhoneStartAnswer = z.infer<typeof phoneStartAnswer>;
export const phoneConfirmRequest = z.object({ verificationId: z.string().min(1).max(128), code: z.string().max(16) });
export type PhoneConfirmRequest = z.infer<typeof phoneConfirmRequest>;

export const passwordResetRequest = z.object({ email });
export type PasswordResetRequest = z.infer<typeof passwordResetRequest>;
export const passwordResetConfirmRequest = z.object({
  token: z.string().min(1).max(512),
  password: newPassword,
});
export type PasswordResetConfirmRequest = z.infer<typeof passwordResetConfirmRequest>;

/**
 * POST /api/auth/verify-email: the token from the link `PUBLIC_BASE_URL/verify-email#token=<token>`,
 * and, from a change of address's link (`…#token=<token>&email=<new address>`), the new address.
 */
export const verifyEmailRequest = z.object({ token: z.string().min(1).max(512), email: email.optional() });
export type VerifyEmailRequest = z.infer<typeof verifyEmailRequest>;
export const verifyEmailAnswer = z
  .object({
    email: z.string(),
    emailVerified: z.literal(true),
    /** Present when the link moved the account to this address. */
    changed: z.literal(true).optional(),
  })
  .meta({ id: 'EmailVerified' });
export type VerifyEmailAnswer = z.infer<typeof verifyEmailAnswer>;

/** POST /api/auth/verify-email/preview: what following a mailed link would do, and for whom. */
export const emailLinkPreview = z
  .object({
    /** The address the link verifies, or moves the account to. */
    email: z.string(),
    /** The display name of the account that asked for the link; null when it has none. */
    displayName: z.string().nullable(),
    /** Whether the link moves the account to `email` (a change of address's link). */
    change: z.boolean(),
    /** Whether the caller's session is that account's: only then does following the link act. */
    yours: z.boolean(),
  })
  .meta({ id: 'EmailLinkPreview' });
export type EmailLinkPreview = z.infer<typeof emailLinkPreview>;

/**
 * How a mailed link's mail and page name the account that asked for it: "Account Ada asked to use
 * ada@example.com".
 */
export function linkAskedBy(displayName: string | null, address: string): string {
  return displayName
    ? `Account ${displayName} asked to use ${address}`
    : `An account without a name asked to use ${address}`;
}

const authFailure = (description: string) => ({
  description: `${description}; \`code\` names it`,
  schema: errorAnswer,
});
const sessionCookie = {
  'Set-Cookie': `${REFRESH_COOKIE}=<refresh token>; Path=${REFRESH_COOKIE_PATH}; HttpOnly; Secure; SameSite=Strict; Max-Age=<its lifetime>`,
};
const clearedCookie = `${REFRESH_COOKIE}=; Path=${REFRESH_COOKIE_PATH}; Expires=<a past date>`;
const session = (description: string) => ({ description, schema: authSession, headers: sessionCookie });
const tooMany = authFailure('Too many attempts (too-many-requests)');
/** The limits' counters live in Redis when it is used: without them nothing is let through. */
const limitsUnavailable = {
  description: 'The rate limits cannot be checked right now (Redis down)',
  schema: errorAnswer,
};

/** Accounts by e-mail and password, anonymous sessions, and signing out. */
export const emailPasswordRoutes = defineRoutes({
  signUp: {
    method: 'post',
    path: '/api/auth/signup',
    summary: 'Create an account with email and password',
    auth: 'none',
    readsToken: false,
    body: signUpRequest,
    challenge: true,
    answers: {
      201: session('Signed in to the new account'),
      400: authFailure('invalid-email or weak-password'),
      409: authFailure('email-already-in-use'),
      429: tooMany,
      503: limitsUnavailable,
    },
  },
  signIn: {
    method: 'post',
    path: '/api/auth/signin',
    summary: 'Sign in with email and password',
    auth: 'none',
    readsToken: false,
    body: signInRequest,
    answers: {
      200: session('Signed in'),
      400: authFailure('invalid-email'),
      401: authFailure('invalid-credential: no such account or a wrong password, on purpose not told apart'),
      429: tooMany,
      503: limitsUnavailable,
    },
  },
  startAnonymousSession: {
    method: 'post',
    path: '/api/auth/anonymous',
    summary: 'Start an anonymous session (public reads, scans, donations, waitlist)',
    auth: 'none',
    readsToken: false,
    answers: {
      200: session('An anonymous session'),
      403: { description: 'Anonymous sign-in is turned off (ANONYMOUS_AUTH=false)', schema: errorAnswer },
      429: tooMany,
      503: limitsUnavailable,
    },
  },
  refreshSession: {
    method: 'post',
    path: '/api/auth/refresh',
    summary: "Trade the refresh token's cookie for a new session (the old token stops working)",
    auth: 'none',
    readsToken: false,
    cookies: refreshCookie,
    answers: {
      200: session('A new access token, and a new refresh token in the cookie'),
      401: {
        description:
          'No refresh cookie, or an unknown, expired, signed-out or already used one (reuse ends the session)',
        schema: errorAnswer,
      },
    },
  },
  signOut: {
    method: 'post',
    path: '/api/auth/signout',
    summary: "End the session of the refresh token's cookie, and clear the cookie",
    auth: 'none',
    readsToken: false,
    cookies: refreshCookie,
    answers: {
      204: {
        description: 'Signed out (also without a cookie, or with an unknown one)',
        headers: { 'Set-Cookie': clearedCookie },
      },
    },
  },
  signOutEverywhere: {
    method: 'post',
    path: '/api/auth/signout-everywhere',
    summary:
      "End every session of the signed-in account: every device's refresh token and every access token issued so far",
    auth: 'user',
    answers: {
      204: {
        description: "Signed out everywhere, this browser's cookie cleared",
        headers: { 'Set-Cookie': clearedCookie },
      },
      401: unauthenticated,
      403: { description: 'Anonymous session', schema: errorAnswer },
    },
  },
});

/** Signing in with Google. */
export const googleSignInRoutes = defineRoutes({
  startGoogleSignIn: {
    method: 'get',
    path: '/api/auth/google',
    summary: "Start Google sign-in: redirects to Google's consent page",
    auth: 'none',
    readsToken: false,
    answers: {
      302: { description: 'To Google, with a state bound to this browser by a cookie' },
      503: { description: 'Google sign-in is not configured', schema: errorAnswer },
    },
  },
  googleCallback: {
    method: 'get',
    path: '/api/auth/google/callback',
    summary: 'Where Google sends the browser back',
    auth: 'none',
    readsToken: false,
    answers: {
      302: {
        description: 'To /signin#google=<one-time code> (trade it at /api/auth/exchange), or /signin#error=<auth code>',
      },
      503: { description: 'Google sign-in is not configured', schema: errorAnswer },
    },
  },
  exchangeGoogleCode: {
    method: 'post',
    path: '/api/auth/exchange',
    summary: "Trade Google's one-time code (valid 60 s, once) for a session",
    auth: 'none',
    readsToken: false,
    body: exchangeCodeRequest,
    answers: {
      200: session('Signed in'),
      400: invalid,
      401: authFailure('code-expired: unknown, used or expired code'),
    },
  },
});

/** Signing in by a code sent to a phone. */
export const phoneSignInRoutes = defineRoutes({
  startPhoneSignIn: {
    method: 'post',
    path: '/api/auth/phone/start',
    summary: 'Send a 6-digit sign-in code by SMS',
    auth: 'none',
    readsToken: false,
    body: phoneStartRequest,
    answers: {
      202: { description: 'Code sent; valid 10 minutes, 5 tries', schema: phoneStartAnswer },
      400: authFailure('invalid-phone-number (E.164 expected)'),
      429: tooMany,
      503: {
        description:
          'Phone sign-in is not configured (production without an SMS provider), or the rate limits cannot be checked',
        schema: errorAnswer,
      },
    },
  },
  confirmPhoneSignIn: {
    method: 'post',
    path: '/api/auth/phone/confirm',
    summary: 'Sign in with the SMS code',
    auth: 'none',
    readsToken: false,
    body: phoneConfirmRequest,
    answers: {
      200: session('Signed in (an account is made for a new number)'),
      400: authFailure('invalid-verification-code, or code-expired (also after 5 tries)'),
      429: tooMany,
      503: {
        description:
          'Phone sign-in is not configured (production without an SMS provider), or the rate limits cannot be checked',
        schema: errorAnswer,
      },
    },
  },
});

/** Resetting a forgotten password by mail. */
export const passwordResetRoutes = defineRoutes({
  requestPasswordReset: {
    method: 'post',
    path: '/api/auth/password-reset',
    summary: 'Email a password reset link',
    auth: 'none',
    readsToken: false,
    body: passwordResetRequest,
    challenge: true,
    answers: {
      202: { description: 'The same answer whether or not the address has an account' },
      400: authFailure('invalid-email'),
      429: tooMany,
      503: limitsUnavailable,
    },
  },
  confirmPasswordReset: {
    method: 'post',
    path: '/api/auth/password-reset/confirm',
    summary: "Set a new password with the link's token (once, within an hour)",
    auth: 'none',
    readsToken: false,
    body: passwordResetConfirmRequest,
    answers: {
      204: { description: "Password changed; the account's sessions are ended" },
      400: authFailure('weak-password, or code-expired for an unknown, used or expired token'),
      429: tooMany,
      503: limitsUnavailable,
    },
  },
});

const linkNoLongerFits = {
  description:
    'The link was sent to an address the account no longer uses, the account’s address changed since, or another account holds the new address',
  schema: errorAnswer,
};

/** Verifying an account's address. */
export const emailVerificationRoutes = defineRoutes({
  verifyEmail: {
    method: 'post',
    path: '/api/auth/verify-email',
    summary:
      "Verify the account's address with the mailed token, or move the account to the new address a change link was mailed to (once, within 24 hours), signed in as the account that asked for the link",
    auth: 'none',
    body: verifyEmailRequest,
    answers: {
      200: {
        description: 'The address is verified (and the account moved to it, for a change link)',
        schema: verifyEmailAnswer,
      },
      400: { description: 'Malformed body, or an unknown, used or expired token', schema: errorAnswer },
      401: {
        description:
          'No session of an account (`sign-in-required`: the link stays as it was), or a bad or expired token',
        schema: errorAnswer,
      },
      403: { description: 'Another account’s session: the link stays as it was', schema: errorAnswer },
      409: linkNoLongerFits,
    },
  },
  previewEmailLink: {
    method: 'post',
    path: '/api/auth/verify-email/preview',
    summary: 'What a mailed verification or change link would do, and which account asked for it, without using it',
    auth: 'none',
    body: verifyEmailRequest,
    answers: {
      200: { description: 'The link works, for the account it names', schema: emailLinkPreview },
      400: { description: 'Malformed body, or an unknown, used or expired token', schema: errorAnswer },
      409: linkNoLongerFits,
    },
  },
  resendVerification: {
    method: 'post',
    path: '/api/auth/verify-email/resend',
    summary: "Mail a fresh verification link to the signed-in account's address",
    auth: 'user',
    challenge: true,
    answers: {
      202: { description: 'A new link is on its way (earlier links keep working until they expire)' },
      401: { description: 'No or bad token', schema: errorAnswer },
      403: { description: 'Anonymous session', schema: errorAnswer },
      409: { description: 'The address is verified already, or the account has none', schema: errorAnswer },
      429: tooMany,
      503: limitsUnavailable,
    },
  },
});

/** Who the session is. */
export const meRoutes = defineRoutes({
  getMe: {
    method: 'get',
    path: '/api/me',
    summary: 'Who the caller is, and whether they are an admin',
    auth: 'any',
    answers: { 200: { description: 'The caller', schema: me }, 401: unauthenticated },
  },
});

/** Sign-in, sessions and address verification. */
export const authRoutes = {
  ...emailPasswordRoutes,
  ...googleSignInRoutes,
  ...phoneSignInRoutes,
  ...passwordResetRoutes,
  ...emailVerificationRoutes,
};

/**
 * The meta tag by which the gateway's pages carry Stripe's publishable key when Stripe takes
 * donations: the donation card then embeds Stripe's Checkout. One build serves either setting; a
 * page without the tag keeps the configured donation widget. In this module, which every page's
 * client loads at start: a contracts module of its own, imported by the donation card, made the
 * build fold the QR landing's route into a shared chunk.
 */
export const STRIPE_PUBLISHABLE_KEY_META = 'qrshirt-stripe-publishable-key';
/**
 * Beside the publishable key: the platform's share of a card donation in percent
 * (STRIPE_PLATFORM_FEE_PERCENT), so the donation card says what reaches the charity.
 */
export const STRIPE_PLATFORM_FEE_META = 'qrshirt-stripe-platform-fee-percent';
