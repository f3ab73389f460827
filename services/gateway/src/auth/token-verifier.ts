import type { Identity } from './identity';

/** A valid token's identity, and when it was issued (epoch milliseconds). */
export interface VerifiedToken extends Identity {
  issuedAt: number;
}

/** Turns a bearer token into an identity, or null when it is not valid. */
export interface TokenVerifier {
  verify(token: string): Promise<VerifiedToken | null>;
}
