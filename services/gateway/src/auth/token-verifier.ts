import type { Identity } from './identity';

/** Turns a bearer token into an identity, or null when it is not valid. */
export interface TokenVerifier {
  verify(token: string): Promise<Identity | null>;
}

const DEV_TOKEN = /^dev-(user|anon):([A-Za-z0-9_-]{1,128})$/;

/**
 * Development tokens (`dev-user:<uid>`, `dev-anon:<uid>`) until the accounts issue brings signed
 * JWTs behind this same port. Refused in production by the composition root.
 */
export function createDevTokenVerifier(): TokenVerifier {
  return {
    async verify(token) {
      const match = DEV_TOKEN.exec(token);
      if (!match) return null;
      return { uid: match[2]!, anonymous: match[1] === 'anon' };
    },
  };
}
