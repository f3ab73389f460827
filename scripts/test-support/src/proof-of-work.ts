import { altchaChallenge } from '@qrshirt/contracts';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';

/**
 * A solved proof-of-work challenge of the gateway at `baseUrl`, as the ALTCHA widget would send it
 * in X-Altcha: fetched from GET /api/challenge and solved here (altcha-lib), good for one request.
 * The test gateways are started with a low ALTCHA_MAX_NUMBER, so this takes a few milliseconds.
 */
export async function solveProofOfWork(baseUrl: string): Promise<string> {
  const answer = await fetch(`${baseUrl}/api/challenge`);
  if (!answer.ok) throw new Error(`GET /api/challenge answered ${answer.status}: ${await answer.text()}`);
  const challenge = altchaChallenge.parse(await answer.json());
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('The proof-of-work challenge could not be solved in time');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/**
 * The proof of work tests ask the gateways they start for: a challenge hides a counter of at most
 * this, so solving one costs next to nothing (production's default is 100,000).
 */
export const TEST_ALTCHA_MAX_NUMBER = '50';
