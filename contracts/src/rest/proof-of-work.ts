import { z } from 'zod';
import { defineRoutes } from '../route';

/**
 * Where a request to a route with `challenge: true` carries its proof of work: the ALTCHA widget's
 * payload (base64 of `{ challenge, solution }`), in a header so that the spec's bodies stay as
 * they are. Named in lower case, as Node reads headers.
 */
export const PROOF_OF_WORK_HEADER = 'x-altcha';

/**
 * An ALTCHA challenge (proof of work v2, as altcha-lib makes it and the `altcha` widget solves
 * it): find the counter whose derived key starts with `keyPrefix`. Signed by the gateway, so a
 * solution comes back with the challenge it solved and nothing is kept until it is spent.
 */
export const altchaChallenge = z
  .object({
    parameters: z.object({
      algorithm: z.string(),
      nonce: z.string(),
      salt: z.string(),
      cost: z.number().int().positive(),
      keyLength: z.number().int().positive(),
      keyPrefix: z.string(),
      keySignature: z.string().optional(),
      /** Seconds since the epoch after which no solution of it is accepted. */
      expiresAt: z.number().int().positive(),
    }),
    signature: z.string(),
  })
  .meta({ id: 'AltchaChallenge' });
export type AltchaChallenge = z.infer<typeof altchaChallenge>;

/** The proof of work that anonymous forms which write or mail something carry. */
export const proofOfWorkRoutes = defineRoutes({
  getChallenge: {
    method: 'get',
    path: '/api/challenge',
    summary:
      'A proof-of-work challenge (ALTCHA): its solution goes in the X-Altcha header of a route that asks for one, once',
    auth: 'none',
    readsToken: false,
    answers: { 200: { description: 'A new challenge, signed, never cached', schema: altchaChallenge } },
  },
});
