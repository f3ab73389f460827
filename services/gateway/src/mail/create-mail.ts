import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { AdminOutboxMessage, AdminOutboxPage, AdminOutboxQuery } from '@qrshirt/contracts';
import type { Clock, NewOutboxMessage, OutboxMessage, OutboxStore } from '@qrshirt/core';
import type { Logger } from 'pino';
import { Counter, Gauge, type Registry } from 'prom-client';
import { maskEmail } from '../http/mask-personal-data';
import type { EmailSender, SmsSender } from './message-senders';
import type { Config } from '../config';
import { createOutboxSender, RETRY_WINDOW_MS } from './outbox-sender';
import { createRedisOutboxStore } from '@qrshirt/redis';
import { createSqliteOutboxStore } from '@qrshirt/sqlite';
import { createEmlFileTransport, createSmsFileTransport, createSmtpTransport, type Transport } from './transports';

interface Mail {
  email: EmailSender;
  sms: SmsSender;
  /**
   * Webhooks this product sends itself (the demo processor's), stored before the caller answers
   * and delivered with retries like mail. `messageId` is the webhook id: the same on every try.
   */
  webhooks: { send(webhook: { messageId: string; to: string; subject: string; body: string }): Promise<void> };
  /** What the admin Outbox screen reads and does. */
  outbox: {
    list(query: AdminOutboxQuery): Promise<AdminOutboxPage>;
    retry(id: string): Promise<AdminOutboxMessage | 'sent' | null>;
  };
  /**
   * Forgets every message to an address or number, waiting or kept after sending, and the files
   * written for it: its person is erased.
   */
  forgetRecipient(this: void, address: string): Promise<number>;
  /** Starts delivering (each gateway runs a sender; leases keep them off each other's messages). */
  start(): void;
  close(): Promise<void>;
}

type MailConfig = Pick<
  Config,
  'SMTP_URL' | 'MAIL_FROM' | 'CREDENTIALS_STORE' | 'REDIS_URL' | 'DATA_DIR' | 'mailDir' | 'smsDir'
>;

/** `+15555550123` -> `+15*******23`. */
const maskPhone = (number: string) =>
  `${number.slice(0, 3)}${'*'.repeat(Math.max(0, number.length - 5))}${number.slice(-2)}`;

/** Addresses are personal data; a webhook's target is not. */
const maskedRecipient = (message: OutboxMessage): string => {
  switch (message.channel) {
    case 'email':
      return maskEmail(message.to);
    case 'sms':
      return maskPhone(message.to);
    case 'webhook':
      return message.to;
  }
};

const toAdmin = (message: OutboxMessage): AdminOutboxMessage => ({
  id: message.id,
  channel: message.channel,
  to: maskedRecipient(message),
  subject: message.subject,
  status: message.status,
  attempts: message.attempts,
  createdAt: new Date(message.createdAt).toISOString(),
  nextAttemptAt: message.status === 'queued' ? new Date(message.nextAttemptAt).toISOString() : null,
  sentAt: message.sentAt === null ? null : new Date(message.sentAt).toISOString(),
  lastError: message.lastError,
});

/** The host part of MAIL_FROM, for Message-IDs: `<uuid@qrshirts.example>`. */
function messageIdDomain(from: string): string {
  return /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'qrshirts.invalid';
}

/**
 * Mail, SMS and the demo processor's webhooks through one durable outbox: a message is stored
 * (SQLite file in DATA_DIR, or Redis where the credentials live) before the caller's request
 * answers, then the sender delivers it by SMTP (SMTP_URL) or, without one, as `.eml` files in
 * DATA_DIR/mail/; SMS always as files, no SMS provider being connected; webhooks with the
 * `webhooks` transport the caller gives. The metrics land in `metrics`.
 */
export function createMail(
  config: MailConfig,
  {
    clock,
    log,
    metrics,
    webhooks,
    watchStore,
  }: {
    clock: Clock;
    log: Logger;
    metrics: Registry;
    webhooks: Transport;
    /** Wraps the store, to watch its writes (a full disk turns /readyz down). */
    watchStore: (store: OutboxStore) => OutboxStore;
  },
): Mail {
  const store = watchStore(
    config.CREDENTIALS_STORE === 'redis' && config.REDIS_URL
      ? createRedisOutboxStore({ url: config.REDIS_URL })
      : createSqliteOutboxStore({ path: path.resolve(config.DATA_DIR, 'outbox.sqlite') }),
  );
  const email = config.SMTP_URL
    ? createSmtpTransport({ url: config.SMTP_URL, from: config.MAIL_FROM })
    : createEmlFileTransport({ folder: config.mailDir, from: config.MAIL_FROM, log });
  const sms = createSmsFileTransport({ folder: config.smsDir, log });
  if (!config.SMTP_URL) log.info({ folder: config.mailDir }, 'no SMTP_URL: mail is written as .eml files');

  const sent = new Counter({
    name: 'outbox_messages_sent_total',
    help: 'Messages delivered',
    labelNames: ['channel'],
    registers: [metrics],
  });
  const failed = new Counter({
    name: 'outbox_send_failures_total',
    help: 'Delivery tries that failed (each is retried until the message is dead)',
    labelNames: ['channel'],
    registers: [metrics],
  });
  const dead = new Counter({
    name: 'outbox_messages_dead_total',
    help: 'Messages given up after their last try',
    labelNames: ['channel'],
    registers: [metrics],
  });
  new Gauge({
    name: 'outbox_messages_queued',
    help: 'Messages waiting to be delivered',
    registers: [metrics],
    async collect() {
      this.set((await store.counts()).queued);
    },
  });
  new Gauge({
    name: 'outbox_oldest_queued_age_seconds',
    help: 'How long the oldest waiting message has waited (0 when none waits)',
    registers: [metrics],
    async collect() {
      const oldest = await store.oldestQueuedAt();
      this.set(oldest === null ? 0 : Math.max(0, (clock().getTime() - oldest) / 1000));
    },
  });

  const sender = createOutboxSender({
    store,
    transports: { email, sms, webhook: webhooks },
    clock,
    log,
    owner: `${process.pid}-${randomUUID()}`,
    events: {
      sent: (message) => sent.inc({ channel: message.channel }),
      failed(message, isDead) {
        failed.inc({ channel: message.channel });
        if (isDead) dead.inc({ channel: message.channel });
      },
    },
  });

  const domain = messageIdDomain(config.MAIL_FROM);
  async function enqueue(
    message: Omit<NewOutboxMessage, 'id' | 'messageId'> & { messageId?: string },
    id: string = randomUUID(),
  ): Promise<void> {
    const now = clock().getTime();
    await store.enqueue({ messageId: `<${id}@${domain}>`, ...message, id }, now, now + RETRY_WINDOW_MS);
    sender.wake();
  }

  return {
    email: {
      async sendEmail({ to, subject, text, html }, options) {
        if (options?.budget && ((await store.holds(options.onceKey)) || !(await options.budget()))) return;
        await enqueue({ channel: 'email', to, subject, text, html }, options?.onceKey);
      },
    },
    sms: {
      sendSms: ({ to, text }) => enqueue({ channel: 'sms', to, subject: 'SMS', text, html: null }),
    },
    webhooks: {
      send: ({ messageId, to, subject, body }) =>
        enqueue({ channel: 'webhook', to, subject, text: body, html: null, messageId }),
    },
    outbox: {
      async list({ status, limit, cursor }) {
        const [page, counts] = await Promise.all([store.list({ status, limit, before: cursor }), store.counts()]);
        return { messages: page.messages.map(toAdmin), counts, nextCursor: page.nextCursor };
      },
      async retry(id) {
        const now = clock().getTime();
        const outcome = await store.retry(id, now, now + RETRY_WINDOW_MS);
        if (outcome === null || outcome === 'sent') return outcome;
        sender.wake();
        return toAdmin(outcome);
      },
    },
    async forgetRecipient(address) {
      // The files written for it first: the store's record is what says the address had mail.
      await Promise.all([email.forget?.(address), sms.forget?.(address)]);
      return store.forgetRecipient(address);
    },
    start: () => sender.start(),
    async close() {
      await sender.stop();
      email.close();
      await store.close();
    },
  };
}
