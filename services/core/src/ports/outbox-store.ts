import type { OutboxStatus } from '@qrshirt/contracts';

/** `webhook`: the demo processor's signed webhooks to this product (`messageId` is the webhook id). */
export type OutboxChannel = 'email' | 'sms' | 'webhook';

/** A message as the request that caused it hands it over. */
export interface NewOutboxMessage {
  id: string;
  channel: OutboxChannel;
  to: string;
  subject: string;
  text: string;
  /** Null for SMS. */
  html: string | null;
  /** RFC 5322 Message-ID, made once: a retry after a crash sends the same one. */
  messageId: string;
}

export interface OutboxMessage extends NewOutboxMessage {
  status: OutboxStatus;
  /** Delivery attempts made so far. */
  attempts: number;
  /** Epoch milliseconds, as every time here. */
  createdAt: number;
  /** When a queued message is due; from `createdAt` + the retry window on, it is given up. */
  nextAttemptAt: number;
  /** Tries stop after this (24 hours after it was queued, or after an admin's retry). */
  deadline: number;
  sentAt: number | null;
  lastError: string | null;
}

export interface OutboxCounts {
  queued: number;
  sent: number;
  dead: number;
}

export interface OutboxPage {
  messages: OutboxMessage[];
  /** Pass back as `before` for the next (older) page; null on the last. */
  nextCursor: string | null;
}

/**
 * The durable outbox: a message is stored before the request that caused it answers, then a
 * sender works it. Several senders (one per gateway) share a store; a sender claims due messages
 * with a lease, so exactly one works a given message, and its outcome is recorded only while it
 * still holds the lease (a sender that stalled past its lease cannot overwrite the next one's).
 * Every adapter passes `outbox-store.contract.ts`.
 */
export interface OutboxStore {
  /**
   * Stores a new message. One whose id is stored already is left as it is: a message meant to go
   * once (a day's summary) gets an id of its own making, and whoever asks again sends nothing.
   */
  enqueue(message: NewOutboxMessage, now: number, deadline: number): Promise<void>;
  /** Whether a message with this id is stored, in any state (a sent one until pruned or forgotten). */
  holds(id: string): Promise<boolean>;
  /** Up to `limit` queued messages due at `now`, leased to `owner` until `now + leaseMs`, oldest first. */
  claimDue(owner: string, now: number, leaseMs: number, limit: number): Promise<OutboxMessage[]>;
  /**
   * Records deliveries, all in one write: those of `ids` that `owner` still held the lease of
   * (answered). A sent message keeps no body: its links (a password reset's) are secrets, and
   * nothing sends it again.
   */
  markSent(ids: readonly string[], owner: string, now: number): Promise<string[]>;
  /** Records a failed try: due again at `retryAt`, or dead when `retryAt` is null. False without the lease. */
  markFailed(id: string, owner: string, error: string, retryAt: number | null): Promise<boolean>;
  /**
   * An admin's retry: a queued or dead message becomes due at `now`, with a fresh window until
   * `deadline`; 'sent' when it was delivered already, null when unknown.
   */
  retry(id: string, now: number, deadline: number): Promise<OutboxMessage | 'sent' | null>;
  /** Newest first; `before` is a previous page's cursor. */
  list(query: { status?: OutboxStatus; limit: number; before?: string }): Promise<OutboxPage>;
  counts(): Promise<OutboxCounts>;
  /** Forgets sent messages delivered before `before`; answers how many. Waiting and dead ones stay. */
  pruneSent(before: number): Promise<number>;
  /**
   * Forgets every message to `to` (any case), whatever its state, and answers how many: erasing a
   * person takes their address out of the mail still waiting and of the history kept of sent mail.
   */
  forgetRecipient(to: string): Promise<number>;
  /** When the oldest queued message was stored; null when none waits. */
  oldestQueuedAt(): Promise<number | null>;
  close(): Promise<void>;
}
