import type { Config } from '../config';
import { generatedSecret } from '../auth/generated-secret';

/**
 * The secret the donation processor signs its webhooks with: DONATION_WEBHOOK_SECRET, or without
 * it one generated on first start (`whsec_` and 256 random bits in base64, Standard Webhooks'
 * form) into DATA_DIR, mode 0600, which the demo processor and the webhook route of every process
 * on that folder share.
 */
export function donationWebhookSecret(config: Pick<Config, 'DONATION_WEBHOOK_SECRET' | 'donationWebhookSecretFile'>) {
  return (
    config.DONATION_WEBHOOK_SECRET ??
    generatedSecret(config.donationWebhookSecretFile, (bytes) => `whsec_${bytes.toString('base64')}`)
  );
}
