import type { Request } from 'express';
import type passport from 'passport';
import type { Accounts } from '../auth/accounts';
import type { AuthOptions } from '../auth/auth-options';
import type { EmailVerification } from '../auth/email-verification';
import type { LimitedAction, RateLimitKey } from '../auth/rate-limiter';
import type { Sessions } from '../auth/sessions';
import type { RouteDeps } from './route-deps';

type Passport = InstanceType<typeof passport.Passport>;

/** Shared by the sign-in route modules; built once by `authRoutes`. */
export interface AuthContext extends RouteDeps, AuthOptions {
  accounts: Accounts;
  sessions: Sessions;
  passport: Passport;
  verification: EmailVerification;
}

export function limitByIp(action: LimitedAction, req: Request): RateLimitKey {
  return { action, scope: 'ip', subject: req.ip ?? req.socket.remoteAddress ?? 'unknown' };
}

/** `subject` is a hash of the email or phone number, so counters hold no personal data. */
export function limitByAccount(action: LimitedAction, subject: string): RateLimitKey {
  return { action, scope: 'account', subject };
}
