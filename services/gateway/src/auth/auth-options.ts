import type { CredentialsStore } from '@qrshirt/core';
import type { GoogleSettings } from './google-sign-in';
import type { JwtTokens } from './jwt-tokens';
import type { PasswordHasher } from './passwords';
import type { EmailSender, SmsSender } from '../mail/message-senders';
import type { RateLimiter } from './rate-limiter';

/** What the sign-in routes need from the composition root. */
export interface AuthOptions {
  tokens: JwtTokens;
  /** Whether the account was closed: its tokens are refused from then on, however young. */
  isClosedAccount(this: void, uid: string): Promise<boolean>;
  credentials: CredentialsStore;
  passwords: PasswordHasher;
  limiter: RateLimiter;
  sms: SmsSender;
  email: EmailSender;
  /**
   * Whether phone sign-in is offered. No SMS provider is connected yet: outside production the
   * codes are written to DATA_DIR/sms/ for the developer to read; in production it is off.
   */
  phoneSignIn: boolean;
  /** Whether visitors may start anonymous sessions (ANONYMOUS_AUTH). */
  anonymousSignIn: boolean;
  /** Keyed hash for phone codes. */
  codeHash: (text: string) => string;
  refreshTtlMs: number;
  /** Absent when Google sign-in is not configured. */
  google?: GoogleSettings;
}
