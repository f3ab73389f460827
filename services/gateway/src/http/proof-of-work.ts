import type { AltchaChallenge } from '@qrshirt/contracts';
import type { SpentChallenges } from '@qrshirt/core';
import { isStorageFull } from '@qrshirt/runtime';
import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { z } from 'zod';
import { HttpError } from './http-error';

/**
 * Iterated SHA-256, once per counter: bundled with the widget, and the cheapest for the gateway,
 * which derives one key per challenge it makes and checks a solution with one HMAC.
 */
const ALGORITHM = 'SHA-256';

export const PROOF_OF_WORK_MISSING =
  'This form needs a proof of work: solve a challenge from GET /api/challenge and send its payload in the X-Altcha header';
export const PROOF_OF_WORK_INVALID =
  'The proof of work in the X-Altcha header is not valid: solve a new challenge from GET /api/challenge';
export const PROOF_OF_WORK_EXPIRED = 'The proof-of-work challenge has expired: solve a new one from GET /api/challenge';
export const PROOF_OF_WORK_USED =
  'This proof of work was used already: each request needs a new challenge from GET /api/challenge';

/** The widget's payload: base64 of JSON `{ challenge, solution }`. Parameters are kept whole, as they were signed. */
const payloadSchema = z.object({
  challenge: z.object({
    parameters: z.looseObject({
      algorithm: z.literal(ALGORITHM),
      nonce: z.string().regex(/^[0-9a-f]{32}$/),
      salt: z.string(),
      cost: z.number(),
      keyLength: z.number(),
      keyPrefix: z.string(),
      // Required: a challenge without an expiry would be good for ever.
      expiresAt: z.number().int().positive(),
    }),
    signature: z.string().min(1),
  }),
  solution: z.object({ counter: z.number(), derivedKey: z.string(), time: z.number().optional() }),
});

export interface ProofOfWork {
  /** A new challenge, signed, in the widget's format. */
  challenge(this: void): Promise<AltchaChallenge>;
  /**
   * Accepts a solution (the X-Altcha header's value) once: refused with 400 when it is missing,
   * forged, expired or used already, by this gateway or any other sharing the store.
   */
  redeem(this: void, payload: string | undefined): Promise<void>;
}

/**
 * ALTCHA's proof of work (altcha-lib), self-hosted: nothing is stored for a challenge until its
 * solution is accepted, then its nonce until it expires. Expiry follows the system clock, which
 * altcha-lib reads. The secrets must be the same in every gateway, like the sign-in secret they
 * are derived from.
 */
export function createProofOfWork({
  secrets,
  maxNumber,
  expirySeconds,
  spent,
}: {
  secrets: { signature: string; key: string };
  /** The highest counter a challenge hides: the work of a solver, which tries half of it on average. */
  maxNumber: number;
  expirySeconds: number;
  spent: SpentChallenges;
}): ProofOfWork {
  const hmac = { hmacSignatureSecret: secrets.signature, hmacKeySignatureSecret: secrets.key };

  async function verified(payload: z.infer<typeof payloadSchema>) {
    try {
      return await verifySolution({ ...payload, deriveKey, ...hmac });
    } catch {
      // Malformed hex and the like, which only a forger sends.
      return null;
    }
  }

  return {
    async challenge() {
      const challenge = await createChallenge({
        algorithm: ALGORITHM,
        cost: 1,
        counter: randomInt(maxNumber, 0),
        deriveKey,
        expiresAt: new Date(Date.now() + expirySeconds * 1000),
        ...hmac,
      });
      return challenge as AltchaChallenge;
    },

    async redeem(header) {
      if (!header) throw new HttpError(400, PROOF_OF_WORK_MISSING);
      let decoded: unknown;
      try {
        decoded = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
      } catch {
        throw new HttpError(400, PROOF_OF_WORK_INVALID);
      }
      const payload = payloadSchema.safeParse(decoded);
      if (!payload.success) throw new HttpError(400, PROOF_OF_WORK_INVALID);
      const result = await verified(payload.data);
      if (result?.expired) throw new HttpError(400, PROOF_OF_WORK_EXPIRED);
      if (!result?.verified) throw new HttpError(400, PROOF_OF_WORK_INVALID);
      const { nonce, expiresAt } = payload.data.challenge.parameters;
      const first = await spent.spendChallenge(nonce, expiresAt * 1000, Date.now()).catch((error: unknown) => {
        // A full disk is said as such (503 too): freeing space, not waiting, is what helps.
        if (isStorageFull(error)) throw error;
        throw new HttpError(503, 'The proof of work cannot be checked right now. Please try again in a moment.');
      });
      if (!first) throw new HttpError(400, PROOF_OF_WORK_USED);
    },
  };
}
