import { randomBytes } from 'node:crypto';

/**
 * The secret test servers and gateway processes started by tests sign tokens with: made anew by
 * each test process, so it is found nowhere in the repository either.
 */
export const TEST_JWT_SECRET = randomBytes(32).toString('hex');

/** The donation processor's webhook secret of test servers, in Standard Webhooks' `whsec_` form; made anew likewise. */
export const TEST_WEBHOOK_SECRET = `whsec_${randomBytes(32).toString('base64')}`;
