import { createHash } from 'node:crypto';
import type { EventOf } from '@qrshirt/contracts';
import type { Decider } from '../kit/decider';

export interface RecordWebhook {
  type: 'RecordWebhook';
  webhookId: string;
  webhookType: string;
  donationId: string;
  at: string;
}

export type DonationWebhookEvent = EventOf<'DonationWebhookReceived'>;
export type DonationWebhookState = { webhookType: string; donationId: string } | null;

/** Hashed: a webhook id is whatever text the processor chose, a stream name is not. */
export const donationWebhookStreamName = (webhookId: string): string =>
  `donation-webhook-${createHash('sha256').update(webhookId).digest('hex')}`;

/** Which webhook messages were handled: by Standard Webhooks, a message id is handled once. */
export const donationWebhookDecider: Decider<RecordWebhook, DonationWebhookEvent, DonationWebhookState> = {
  initialState: () => null,

  decide(command, state) {
    if (state) return [];
    return [
      {
        type: 'DonationWebhookReceived',
        data: {
          webhookId: command.webhookId,
          type: command.webhookType,
          donationId: command.donationId,
          at: command.at,
        },
      },
    ];
  },

  evolve(state, event) {
    return state ?? { webhookType: event.data.type, donationId: event.data.donationId };
  },
};
