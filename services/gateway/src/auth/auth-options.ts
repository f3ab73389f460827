import type { CredentialsStore } from './credentials-store';
import type { DevOutbox } from './dev-outbox';
import type { GoogleSettings } from './google-sign-in';
import type { JwtTokens } from './jwt-tokens';
import type { EmailSender, SmsSender } from './message-senders';
import type { RateLimiter } from './rate-limiter';

/** What the sign-in routes need from the composition root. */
export interface AuthOptions {
  tokens: JwtTokens;
  credentials: CredentialsStore;
  limiter: RateLimiter;
  sms: SmsSender;
  email: EmailSender;
  /** Only in development and test: then `GET /api/dev/outbox` shows what was "sent". */
  outbox?: DevOutbox;
  /** Keyed hash for phone codes. */
  codeHash: (text: string) => string;
  refreshTtlMs: number;
  /** Absent when Google sign-in is not configured. */
  google?: GoogleSettings;
}
