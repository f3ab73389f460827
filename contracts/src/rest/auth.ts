import { z } from 'zod';

/**
 * Spec section 8: every auth failure carries one of these codes in `{ error, code }`, and `error`
 * is the message the client shows for it. The server and the web client both read this table.
 */
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

export const MIN_PASSWORD_LENGTH = 6;

/** Given to every successful sign-in, sign-up, anonymous session, refresh and code exchange. */
export const authSession = z
  .object({
    /** Short-lived JWT for `Authorization: Bearer`; its subject is `user.uid`. */
    accessToken: z.string(),
    /** Seconds until the access token expires. */
    expiresIn: z.number().int().positive(),
    /** Opaque, long-lived, single-use: POST /api/auth/refresh trades it for a new session. */
    refreshToken: z.string(),
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
export const signUpRequest = z.object({
  email: z.string().max(320),
  password: z.string().max(1024),
  displayName: z.string().max(200),
});
export type SignUpRequest = z.infer<typeof signUpRequest>;

export const signInRequest = z.object({ email: z.string().max(320), password: z.string().max(1024) });
export type SignInRequest = z.infer<typeof signInRequest>;

export const refreshRequest = z.object({ refreshToken: z.string().min(1).max(512) });
export type RefreshRequest = z.infer<typeof refreshRequest>;

/** Google's callback hands the browser a one-time code (in the URL fragment) to trade here. */
export const exchangeCodeRequest = z.object({ code: z.string().min(1).max(512) });
export type ExchangeCodeRequest = z.infer<typeof exchangeCodeRequest>;

export const phoneStartRequest = z.object({ phoneNumber: z.string().max(32) });
export type PhoneStartRequest = z.infer<typeof phoneStartRequest>;
export const phoneStartAnswer = z.object({ verificationId: z.string() }).meta({ id: 'PhoneVerification' });
export type PhoneStartAnswer = z.infer<typeof phoneStartAnswer>;
export const phoneConfirmRequest = z.object({ verificationId: z.string().min(1).max(128), code: z.string().max(16) });
export type PhoneConfirmRequest = z.infer<typeof phoneConfirmRequest>;

export const passwordResetRequest = z.object({ email: z.string().max(320) });
export type PasswordResetRequest = z.infer<typeof passwordResetRequest>;
export const passwordResetConfirmRequest = z.object({
  token: z.string().min(1).max(512),
  password: z.string().max(1024),
});
export type PasswordResetConfirmRequest = z.infer<typeof passwordResetConfirmRequest>;

/** PATCH /api/user/{id}: the user's own display name and photo. */
export const updateProfileRequest = z
  .object({
    displayName: z.string().trim().min(1).max(200).optional(),
    photoURL: z.url().max(2048).nullable().optional(),
  })
  .refine((body) => body.displayName !== undefined || body.photoURL !== undefined, 'nothing to update');
export type UpdateProfileRequest = z.infer<typeof updateProfileRequest>;

/** POST /api/auth/verify-email: the token from the link `PUBLIC_BASE_URL/verify-email#token=<token>`. */
export const verifyEmailRequest = z.object({ token: z.string().min(1).max(512) });
export type VerifyEmailRequest = z.infer<typeof verifyEmailRequest>;
export const verifyEmailAnswer = z
  .object({ email: z.string(), emailVerified: z.literal(true) })
  .meta({ id: 'EmailVerified' });
export type VerifyEmailAnswer = z.infer<typeof verifyEmailAnswer>;
