import type { Identity } from './identity';

/** Turns a bearer token into an identity, or null when it is not valid. */
export interface TokenVerifier {
  verify(token: string): Promise<Identity | null>;
}
