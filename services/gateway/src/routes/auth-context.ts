import type { Request } from 'express';
import type passport from 'passport';
import type { Accounts } from '../auth/accounts';
import type { AuthOptions } from '../auth/auth-options';
import type { EmailVerification } from '../auth/email-verification';
import type { GoogleExchange } from '../auth/google-exchange';
import type { PasswordReset } from '../auth/password-reset';
import type { PhoneSignIn } from '../auth/phone-sign-in';
import type { Sessions } from '../auth/sessions';
import type { RouteDeps } from './route-deps';

type Passport = InstanceType<typeof passport.Passport>;

/** Shared by the sign-in route modules; built once by `authRoutes`. */
export interface AuthContext extends RouteDeps, AuthOptions {
  accounts: Accounts;
  sessions: Sessions;
  passport: Passport;
  verification: EmailVerification;
  passwordReset: PasswordReset;
  /** Absent while phone sign-in is off. */
  phone: PhoneSignIn | undefined;
  googleExchange: GoogleExchange;
  /** Whether Google sign-in is configured: passport then has its strategy. */
  googleSignIn: boolean;
}

/** The address rate limits count per client: Express's, which honours `trust proxy`. */
export const clientAddress = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? 'unknown';
