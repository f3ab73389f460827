import { randomBytes } from 'node:crypto';
import { generatedSecret } from '@qrshirt/runtime';
import type { Config } from '../config';

type WebhookSettings = Pick<Config, 'DONATION_WEBHOOK_SECRET' | 'donationWebhookSecretFile' | 'NODE_ENV' | 'stripe'>;

/**
 * Why POST /api/webhooks/donations answers 404 here, or null where the generic processor is the
 * one that takes the donations. Next to Stripe it would be a second door to the money; in
 * production without its processor's secret nobody can sign for it but whoever reads DATA_DIR.
 */
export function genericWebhookOff(config: WebhookSettings): string | null {
  if (config.stripe) return 'Stripe takes the donations here (POST /api/webhooks/stripe); this webhook is off';
  if (config.NODE_ENV === 'production' && !config.DONATION_WEBHOOK_SECRET) {
    return 'No donation processor is configured for this webhook (DONATION_WEBHOOK_SECRET is unset)';
  }
  return null;
}

/**
 * The secret the donation processor signs its webhooks with: DONATION_WEBHOOK_SECRET, or without
 * it one generated on first start (`whsec_` and 256 random bits in base64, Standard Webhooks'
 * form) into DATA_DIR, mode 0600, which the demo processor and the webhook route of every process
 * on that folder share. With the route off, only the demo processor's deliveries in this process
 * use it: a secret of this process alone, kept nowhere.
 */
export function donationWebhookSecret(config: WebhookSettings) {
  const format = (bytes: Buffer) => `whsec_${bytes.toString('base64')}`;
  if (config.DONATION_WEBHOOK_SECRET) return config.DONATION_WEBHOOK_SECRET;
  return genericWebhookOff(config) === null
    ? generatedSecret(config.donationWebhookSecretFile, format)
    : format(randomBytes(32));
}
