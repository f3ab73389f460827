import type { DemoDonation, DemoDonationRequest, DonationWebhookPayload, Fundraiser } from '@qrshirt/contracts';
import { type OutboxMessage, parseAmountCents, reportIdFor } from '@qrshirt/core';
import type { Logger } from 'pino';
import { Webhook } from 'standardwebhooks';
import type { Transport } from '../mail/transports';
import type { DonationWebhooks } from './donation-webhooks';

/** Where the demo processor's webhooks go: this product's own webhook receiver. */
export const DEMO_WEBHOOK_TARGET = 'demo processor → POST /api/webhooks/donations';

/** A webhook to store in the outbox: delivered, and retried, by its sender. */
interface QueuedWebhook {
  /** The Standard Webhooks message id: the same on every try. */
  webhookId: string;
  /** The JSON body, exactly as it will be signed and sent. */
  body: string;
  /** What admins see in the Outbox screen. */
  summary: string;
}

export interface DemoProcessor {
  /**
   * "Charges" a demo donation (nothing is charged) and stores its `donation.succeeded` webhook in
   * the outbox before answering, so a webhook that fails to arrive is retried rather than lost.
   */
  charge(request: DemoDonationRequest): Promise<DemoDonation>;
}

const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * The processor behind the demo widget (web/public/widget/), inside the product so that the whole
 * donation flow works with no setup: the widget asks it for a donation, it answers with its own
 * donation id (`demo_…`) and confirms the donation exactly as a real processor would, with a
 * webhook signed by the `standardwebhooks` signer with the same secret the webhook route checks.
 * Each try is signed afresh, so a retry hours later still carries a fresh timestamp.
 */
export function createDemoProcessor({
  findFundraiser,
  enqueue,
  newId,
}: {
  findFundraiser: (id: string) => Promise<Fundraiser>;
  /** Stores the webhook durably; the outbox's sender delivers it with `demoWebhookTransport`. */
  enqueue: (webhook: QueuedWebhook) => Promise<void>;
  newId: () => string;
}): DemoProcessor {
  return {
    async charge({ fundraiserId, amount, reference }) {
      // A real processor knows nothing of fundraisers; this one refuses what would only come back 404.
      await findFundraiser(fundraiserId);
      const cents = parseAmountCents(amount);
      const donationId = `demo_${newId()}`;
      // The page reports this donation with the widget's reference as its Idempotency-Key: the
      // report's id follows from it, as a real processor would be handed it with the checkout.
      const reportId = reference ? reportIdFor(fundraiserId, reference) : null;
      const payload: DonationWebhookPayload = {
        type: 'donation.succeeded',
        // The demo charges nothing: its donations are test money, never counted as raised.
        data: {
          donationId,
          fundraiserId,
          amount: cents / 100,
          currency: 'USD',
          live: false,
          ...(reportId && { reportId }),
        },
      };
      await enqueue({
        webhookId: `msg_${newId()}`,
        body: JSON.stringify(payload),
        summary: `donation.succeeded ${donationId} ${usd(cents)} (demo)`,
      });
      return { donationId, fundraiserId, amount: cents / 100, currency: 'USD', reportId };
    },
  };
}

/**
 * How the outbox delivers the demo processor's webhooks: signed on each try with the
 * `standardwebhooks` signer (a retry hours later carries a fresh timestamp), and handed to this
 * product's webhook receiver, which verifies them as it verifies a real processor's. A refusal
 * (an unknown fundraiser, a bad signature) fails the try, and the outbox tries again later. Every
 * gateway has it, the demo processor on or off, so a webhook already stored is always delivered.
 */
export function demoWebhookTransport({
  secret,
  webhooks,
  log,
}: {
  secret: string;
  webhooks: DonationWebhooks;
  log: Logger;
}): Transport {
  const signer = new Webhook(secret);
  return {
    async deliver(message: OutboxMessage) {
      // The package's timestamp check reads the system clock, so the signature does too.
      const now = new Date();
      const signature = signer.sign(message.messageId, now, message.text);
      const timestamp = String(Math.floor(now.getTime() / 1000));
      await webhooks.receive(
        {
          headers: { 'webhook-id': message.messageId, 'webhook-timestamp': timestamp, 'webhook-signature': signature },
          body: Buffer.from(message.text, 'utf8'),
        },
        log,
      );
    },
    close() {},
  };
}
