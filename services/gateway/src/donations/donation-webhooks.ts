import type { IncomingHttpHeaders } from 'node:http';
import { type DonationWebhookAnswer, donationWebhookPayload } from '@qrshirt/contracts';
import { type DonationUseCases, DomainError } from '@qrshirt/core';
import type { Logger } from 'pino';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { HttpError } from '../http/http-error';
import { parseInput } from '../http/validate';

/** One delivery as it came: the headers, and the body's exact bytes, which the signature covers. */
export interface WebhookDelivery {
  headers: IncomingHttpHeaders | Record<string, string | undefined>;
  body: Buffer;
}

export interface DonationWebhooks {
  /**
   * Verifies the delivery as Standard Webhooks does (HMAC-SHA256 over `id.timestamp.body`, at most
   * 5 minutes from this clock) before anything else, then parses the payload and hands it to the
   * donation use cases. 401 when unsigned or badly signed (nothing recorded), 400 for a payload
   * that is not a known event, 404 for an unknown fundraiser or donation (logged: the processor
   * retries, and someone may need to look).
   */
  receive(delivery: WebhookDelivery, log: Logger): Promise<DonationWebhookAnswer>;
}

const single = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value.join(' ') : value;

export function createDonationWebhooks({
  secret,
  donations,
}: {
  /** `whsec_…` */
  secret: string;
  donations: Pick<DonationUseCases, 'receiveProcessorEvent'>;
}): DonationWebhooks {
  const verifier = new Webhook(secret);

  return {
    async receive({ headers, body }, log) {
      const webhookId = single(headers['webhook-id']);
      const signed = {
        'webhook-id': webhookId ?? '',
        'webhook-timestamp': single(headers['webhook-timestamp']) ?? '',
        'webhook-signature': single(headers['webhook-signature']) ?? '',
      };
      try {
        verifier.verify(body, signed, { jsonParse: false });
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        log.warn({ webhookId, reason: error.message }, 'donation webhook refused: not signed with our secret');
        throw new HttpError(401, `The webhook signature was refused: ${error.message}`);
      }
      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        throw new HttpError(400, 'The webhook body is not valid JSON');
      }
      const payload = parseInput(donationWebhookPayload, json);
      try {
        return await donations.receiveProcessorEvent(webhookId!, payload);
      } catch (error) {
        if (error instanceof DomainError && error.kind === 'not_found') {
          const { donationId, fundraiserId } = payload.data;
          log.warn(
            { webhookId, type: payload.type, donationId, fundraiserId },
            `donation webhook: ${error.message} (answered 404; the processor will retry)`,
          );
        }
        throw error;
      }
    },
  };
}
