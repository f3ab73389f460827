import type passport from 'passport';
import type { EmailPasswordSignIn } from './email-password-sign-in';
import type { EmailVerification } from './email-verification';
import type { GoogleExchange } from './google-exchange';
import type { PasswordReset } from './password-reset';
import type { PhoneSignIn } from './phone-sign-in';

type Passport = InstanceType<typeof passport.Passport>;

/** The sign-in use cases the route modules call, and passport for the strategies; built once by `authHandlers`. */
export interface AuthContext {
  passport: Passport;
  emailPassword: EmailPasswordSignIn;
  verification: EmailVerification;
  passwordReset: PasswordReset;
  /** Absent while phone sign-in is off. */
  phone: PhoneSignIn | undefined;
  googleExchange: GoogleExchange;
  /** Whether Google sign-in is configured: passport then has its strategy. */
  googleSignIn: boolean;
  /** Whether anonymous sessions are offered (ANONYMOUS_AUTH). */
  anonymousSignIn: boolean;
}
