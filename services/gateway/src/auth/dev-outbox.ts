import type { OutboxMessage } from '@qrshirt/contracts';
import type { Clock } from '@qrshirt/core';
import type { EmailSender, SmsSender } from './message-senders';

export interface DevOutbox extends SmsSender, EmailSender {
  /** Oldest first. */
  messages(): OutboxMessage[];
}

/** Enough for a development session; older messages are dropped so memory stays bounded. */
const CAPACITY = 200;

/**
 * The default SMS and email adapter: keeps messages in this process instead of sending them,
 * for tests and, in development only, for `GET /api/dev/outbox`.
 */
export function createDevOutbox({ clock }: { clock: Clock }): DevOutbox {
  const held: OutboxMessage[] = [];
  const keep = (message: Omit<OutboxMessage, 'at'>) => {
    held.push({ ...message, at: clock().toISOString() });
    if (held.length > CAPACITY) held.shift();
  };
  return {
    async sendSms({ to, text }) {
      keep({ channel: 'sms', to, text });
    },
    async sendEmail({ to, subject, text }) {
      keep({ channel: 'email', to, subject, text });
    },
    messages: () => [...held],
  };
}
