import type { ApiRoute } from './api';
import * as rest from './rest';

const authFailure = (description: string) => ({
  description: `${description}; \`code\` names it`,
  schema: rest.errorAnswer,
});
const session = (description: string) => ({ description, schema: rest.authSession });
const tooMany = authFailure('Too many attempts (too-many-requests)');
const invalid = { description: 'Invalid input', schema: rest.errorAnswer };

/** Sign-in, sessions and address verification; part of `apiRoutes`. */
export const authApiRoutes: ApiRoute[] = [
  {
    method: 'post',
    path: '/api/auth/signup',
    summary: 'Create an account with email and password',
    auth: 'none',
    body: rest.signUpRequest,
    answers: {
      201: session('Signed in to the new account'),
      400: authFailure('invalid-email or weak-password'),
      409: authFailure('email-already-in-use'),
      429: tooMany,
    },
  },
  {
    method: 'post',
    path: '/api/auth/signin',
    summary: 'Sign in with email and password',
    auth: 'none',
    body: rest.signInRequest,
    answers: {
      200: session('Signed in'),
      400: authFailure('invalid-email'),
      401: authFailure('invalid-credential: no such account or a wrong password, on purpose not told apart'),
      429: tooMany,
    },
  },
  {
    method: 'post',
    path: '/api/auth/anonymous',
    summary: 'Start an anonymous session (public reads, scans, donations, waitlist)',
    auth: 'none',
    answers: { 200: session('An anonymous session') },
  },
  {
    method: 'post',
    path: '/api/auth/refresh',
    summary: 'Trade a refresh token for a new session (the old token stops working)',
    auth: 'none',
    body: rest.refreshRequest,
    answers: {
      200: session('A new access token and refresh token'),
      400: invalid,
      401: {
        description: 'Unknown, expired, signed-out or already used refresh token (reuse ends the session)',
        schema: rest.errorAnswer,
      },
    },
  },
  {
    method: 'post',
    path: '/api/auth/signout',
    summary: 'End the session of a refresh token',
    auth: 'none',
    body: rest.refreshRequest,
    answers: { 204: { description: 'Signed out (also for an unknown token)' }, 400: invalid },
  },
  {
    method: 'get',
    path: '/api/auth/google',
    summary: "Start Google sign-in: redirects to Google's consent page",
    auth: 'none',
    answers: {
      302: { description: 'To Google, with a state bound to this browser by a cookie' },
      503: { description: 'Google sign-in is not configured', schema: rest.errorAnswer },
    },
  },
  {
    method: 'get',
    path: '/api/auth/google/callback',
    summary: 'Where Google sends the browser back',
    auth: 'none',
    answers: {
      302: {
        description: 'To /signin#google=<one-time code> (trade it at /api/auth/exchange), or /signin#error=<auth code>',
      },
      503: { description: 'Google sign-in is not configured', schema: rest.errorAnswer },
    },
  },
  {
    method: 'post',
    path: '/api/auth/exchange',
    summary: "Trade Google's one-time code (valid 60 s, once) for a session",
    auth: 'none',
    body: rest.exchangeCodeRequest,
    answers: {
      200: session('Signed in'),
      400: invalid,
      401: authFailure('code-expired: unknown, used or expired code'),
    },
  },
  {
    method: 'post',
    path: '/api/auth/phone/start',
    summary: 'Send a 6-digit sign-in code by SMS',
    auth: 'none',
    body: rest.phoneStartRequest,
    answers: {
      202: { description: 'Code sent; valid 10 minutes, 5 tries', schema: rest.phoneStartAnswer },
      400: authFailure('invalid-phone-number (E.164 expected)'),
      429: tooMany,
      503: {
        description: 'Phone sign-in is not configured (production without an SMS provider)',
        schema: rest.errorAnswer,
      },
    },
  },
  {
    method: 'post',
    path: '/api/auth/phone/confirm',
    summary: 'Sign in with the SMS code',
    auth: 'none',
    body: rest.phoneConfirmRequest,
    answers: {
      200: session('Signed in (an account is made for a new number)'),
      400: authFailure('invalid-verification-code, or code-expired (also after 5 tries)'),
      429: tooMany,
      503: {
        description: 'Phone sign-in is not configured (production without an SMS provider)',
        schema: rest.errorAnswer,
      },
    },
  },
  {
    method: 'post',
    path: '/api/auth/password-reset',
    summary: 'Email a password reset link',
    auth: 'none',
    body: rest.passwordResetRequest,
    answers: {
      202: { description: 'The same answer whether or not the address has an account' },
      400: authFailure('invalid-email'),
      429: tooMany,
    },
  },
  {
    method: 'post',
    path: '/api/auth/password-reset/confirm',
    summary: "Set a new password with the link's token (once, within an hour)",
    auth: 'none',
    body: rest.passwordResetConfirmRequest,
    answers: {
      204: { description: "Password changed; the account's sessions are ended" },
      400: authFailure('weak-password, or code-expired for an unknown, used or expired token'),
      429: tooMany,
    },
  },
  {
    method: 'post',
    path: '/api/auth/verify-email',
    summary: "Verify the account's address with the mailed token (once, within 24 hours)",
    auth: 'none',
    body: rest.verifyEmailRequest,
    answers: {
      200: { description: 'The address is verified', schema: rest.verifyEmailAnswer },
      400: { description: 'Malformed body, or an unknown, used or expired token', schema: rest.errorAnswer },
      409: { description: 'The link was sent to an address the account no longer uses', schema: rest.errorAnswer },
    },
  },
  {
    method: 'post',
    path: '/api/auth/verify-email/resend',
    summary: "Mail a fresh verification link to the signed-in account's address",
    auth: 'user',
    answers: {
      202: { description: 'A new link is on its way (earlier links keep working until they expire)' },
      401: { description: 'No or bad token', schema: rest.errorAnswer },
      403: { description: 'Anonymous session', schema: rest.errorAnswer },
      409: { description: 'The address is verified already, or the account has none', schema: rest.errorAnswer },
      429: tooMany,
    },
  },
];
