import type { Clock, OutboxChannel, OutboxMessage, OutboxStore } from '@qrshirt/core';
import type { Logger } from 'pino';
import type { Transport } from './transports';

/** How long a message sent to the whole window may keep being tried. */
export const RETRY_WINDOW_MS = 24 * 60 * 60_000;
/** How long a sent message's record (no body: who, what subject, when) stays for admins to see. */
const SENT_RETENTION_MS = 30 * 24 * 60 * 60_000;
const PRUNE_EVERY_MS = 60 * 60_000;
const FIRST_RETRY_MS = 5_000;
const LONGEST_WAIT_MS = 60 * 60_000;

/**
 * When to try again after the `attempts`-th failed try: 5 s, doubling up to an hour, with a fifth
 * of jitter so that messages failing together do not come back together; a last try at the end
 * of the window; null once the window is over (the message is dead).
 */
function nextAttemptAt(attempts: number, now: number, deadline: number, random = Math.random): number | null {
  if (now >= deadline) return null;
  const wait = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_WAIT_MS) * (0.9 + random() * 0.2);
  return Math.min(Math.round(now + wait), deadline);
}

interface SenderEvents {
  sent(message: OutboxMessage): void;
  failed(message: OutboxMessage, dead: boolean): void;
}

interface OutboxSender {
  start(): void;
  /** Looks for due messages now (this process stored one). */
  wake(): void;
  /** Stops claiming; resolves once the messages in hand are settled. */
  stop(): Promise<void>;
}

/**
 * Works the outbox: claims due messages with a lease, hands each to its channel's transport, and
 * records the outcome while it still holds the lease. Woken at once by this process's own
 * messages, and polling for those of other processes and for retries that came due. Nothing it
 * meets ends the loop: an error is logged and the message tried again later.
 */
export function createOutboxSender(options: {
  store: OutboxStore;
  transports: Record<OutboxChannel, Transport>;
  clock: Clock;
  log: Logger;
  /** Names this process in leases. */
  owner: string;
  pollMs?: number;
  leaseMs?: number;
  /** Messages claimed, and sent side by side, at once. */
  batchSize?: number;
  events?: SenderEvents;
}): OutboxSender {
  const { store, transports, clock, log, owner, pollMs = 1_000, leaseMs = 60_000, batchSize = 50, events } = options;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> | undefined;
  let again = false;
  let prunedAt = -Infinity;

  /** Answers whether the message was delivered; a failure is recorded at once. */
  async function deliver(message: OutboxMessage): Promise<boolean> {
    try {
      await transports[message.channel].deliver(message);
      return true;
    } catch (error) {
      const now = clock().getTime();
      const reason = error instanceof Error ? error.message : String(error);
      const retryAt = nextAttemptAt(message.attempts, now, message.deadline);
      if (await store.markFailed(message.id, owner, reason.slice(0, 500), retryAt))
        events?.failed(message, retryAt === null);
      log.warn(
        {
          channel: message.channel,
          messageId: message.messageId,
          attempts: message.attempts,
          err: reason,
          dead: retryAt === null,
        },
        message.channel === 'webhook' ? 'webhook not delivered' : 'mail not delivered',
      );
      return false;
    }
  }

  async function work(): Promise<void> {
    const now = clock().getTime();
    if (now - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = now;
      const pruned = await store.pruneSent(now - SENT_RETENTION_MS);
      if (pruned > 0) log.info({ pruned }, 'outbox: forgot sent messages older than 30 days');
      for (const [channel, transport] of Object.entries(transports)) {
        const deleted = (await transport.prune?.()) ?? 0;
        if (deleted > 0) log.info({ channel, deleted }, 'outbox: deleted written messages past their retention');
      }
    }
    for (;;) {
      again = false;
      const claimed = await store.claimDue(owner, clock().getTime(), leaseMs, batchSize);
      const outcomes = await Promise.all(claimed.map(deliver));
      const delivered = claimed.filter((_, index) => outcomes[index]);
      // One durable write for the batch's deliveries, not one each.
      const settled = new Set(
        delivered.length
          ? await store.markSent(
              delivered.map((message) => message.id),
              owner,
              clock().getTime(),
            )
          : [],
      );
      for (const message of delivered) {
        if (settled.has(message.id)) events?.sent(message);
        else log.warn({ messageId: message.messageId }, 'mail delivered after its lease ended');
      }
      // A full batch may mean more are due; a wake during the pass may have stored another.
      if (!running || (claimed.length < batchSize && !again)) return;
    }
  }

  function run(): void {
    if (!running) return;
    if (pass) {
      again = true;
      return;
    }
    clearTimeout(timer);
    pass = work()
      .catch((error: unknown) => log.error({ err: error }, 'outbox: sender pass failed'))
      .finally(() => {
        pass = undefined;
        if (running) timer = setTimeout(run, pollMs);
      });
  }

  return {
    start() {
      if (running) return;
      running = true;
      run();
    },
    wake: run,
    async stop() {
      running = false;
      clearTimeout(timer);
      await pass;
    },
  };
}
