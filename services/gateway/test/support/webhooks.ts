import { createHmac, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import { type ApiAnswer, type ApiClient, TEST_WEBHOOK_SECRET } from '@qrshirt/test-support';

export interface DonationEvent {
  type: string;
  data: Record<string, unknown>;
}

interface SignOptions {
  secret?: string;
  /** The `webhook-id`; a new one by default. */
  id?: string;
  /** When it was signed; now by default (the server's check reads the system clock). */
  at?: Date;
}

/** The Standard Webhooks headers of `body`, signed by the `standardwebhooks` package's signer. */
export function signedHeaders(body: string, { secret = TEST_WEBHOOK_SECRET, id, at = new Date() }: SignOptions = {}) {
  const webhookId = id ?? `msg_${randomUUID()}`;
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(webhookId, at, body),
  };
}

/**
 * The same signature computed by hand, as the Standard Webhooks specification describes it: the
 * base64 of HMAC-SHA256 over `${id}.${timestamp}.${body}`, keyed with the base64-decoded secret
 * after `whsec_`, prefixed `v1,`.
 */
export function handSignedHeaders(
  body: string,
  { secret = TEST_WEBHOOK_SECRET, id, at = new Date() }: SignOptions = {},
) {
  const webhookId = id ?? `msg_${randomUUID()}`;
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${webhookId}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': webhookId, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}

/** POSTs a donation processor's webhook signed with the tests' secret (or as `options` say). */
export function sendWebhook(api: ApiClient, event: DonationEvent, options: SignOptions = {}): Promise<ApiAnswer> {
  const body = JSON.stringify(event);
  return api('POST', '/api/webhooks/donations', { rawBody: body, headers: signedHeaders(body, options) });
}

export const succeeded = (data: {
  donationId?: string;
  fundraiserId: string;
  amount: number;
  reportId?: string;
  /** False: test money. True unless said: the processor of these tests takes real money, and says so. */
  live?: boolean;
}): DonationEvent => ({
  type: 'donation.succeeded',
  data: { donationId: `pi_${randomUUID()}`, currency: 'USD', live: true, ...data },
});

export const refunded = (data: { donationId: string; fundraiserId: string; amount: number }): DonationEvent => ({
  type: 'donation.refunded',
  data: { currency: 'USD', ...data },
});

/** The processor confirms a donation (optionally naming the report it came with); answers its id. */
export async function confirmDonation(
  api: ApiClient,
  data: { fundraiserId: string; amount: number; reportId?: string; donationId?: string },
): Promise<string> {
  const event = succeeded(data);
  const answer = await sendWebhook(api, event);
  expect(answer, JSON.stringify(answer.body)).toMatchObject({ status: 200, body: { outcome: 'confirmed' } });
  return event.data.donationId as string;
}

/**
 * A donation as it happens with a processor: the page reports it (POST /donate), then the
 * processor's signed webhook confirms it, naming that report. Answers the report's and the
 * processor's ids.
 */
export async function donateConfirmed(
  api: ApiClient,
  fundraiserId: string,
  amount: number | string,
): Promise<{ reportId: string; donationId: string }> {
  const reported = await api('POST', `/api/fundraisers/${fundraiserId}/donate`, { body: { amount } });
  expect(reported.status, JSON.stringify(reported.body)).toBe(201);
  const donationId = await confirmDonation(api, {
    fundraiserId,
    amount: reported.body.amount,
    reportId: reported.body.id,
  });
  return { reportId: reported.body.id, donationId };
}
