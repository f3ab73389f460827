import type { OutboxStatus } from '@qrshirt/contracts';
import type { OutboxMessage, OutboxStore } from '@qrshirt/core';
import { openSqliteFile } from './sqlite-database';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS outbox (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    id              TEXT    NOT NULL UNIQUE,
    channel         TEXT    NOT NULL,
    recipient       TEXT    NOT NULL,
    subject         TEXT    NOT NULL,
    body_text       TEXT    NOT NULL,
    body_html       TEXT,
    message_id      TEXT    NOT NULL,
    status          TEXT    NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    created_at      INTEGER NOT NULL,
    next_attempt_at INTEGER NOT NULL,
    deadline        INTEGER NOT NULL,
    sent_at         INTEGER,
    last_error      TEXT,
    lease_owner     TEXT,
    lease_until     INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX IF NOT EXISTS outbox_due ON outbox (status, next_attempt_at);
  CREATE INDEX IF NOT EXISTS outbox_by_status ON outbox (status, seq);`;

interface Row {
  seq: number;
  id: string;
  channel: OutboxMessage['channel'];
  recipient: string;
  subject: string;
  body_text: string;
  body_html: string | null;
  message_id: string;
  status: OutboxStatus;
  attempts: number;
  created_at: number;
  next_attempt_at: number;
  deadline: number;
  sent_at: number | null;
  last_error: string | null;
}

const toMessage = (row: Row): OutboxMessage => ({
  id: row.id,
  channel: row.channel,
  to: row.recipient,
  subject: row.subject,
  text: row.body_text,
  html: row.body_html,
  messageId: row.message_id,
  status: row.status,
  attempts: row.attempts,
  createdAt: row.created_at,
  nextAttemptAt: row.next_attempt_at,
  deadline: row.deadline,
  sentAt: row.sent_at,
  lastError: row.last_error,
});

/**
 * The outbox in its own SQLite file in DATA_DIR (its bodies hold reset links: secrets, kept out
 * of the event log). `synchronous = FULL`: a message the request acknowledged survives a power
 * cut. WAL and the busy timeout let every gateway process on the folder share it; a claim is one
 * IMMEDIATE transaction, so two senders never lease the same message.
 */
export function createSqliteOutboxStore({ path }: { path: string }): OutboxStore {
  const db = openSqliteFile(path, {
    synchronous: 'FULL',
    setUp(opened) {
      // A forgotten recipient's address must not linger in a free page of the file.
      opened.pragma('secure_delete = ON');
      opened.exec(SCHEMA);
    },
  });

  const statements = {
    insert: db.prepare(
      `INSERT INTO outbox (id, channel, recipient, subject, body_text, body_html, message_id, status, created_at,
         next_attempt_at, deadline)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?)
       ON CONFLICT (id) DO NOTHING`,
    ),
    due: db.prepare<[number, number, number], { id: string }>(
      `SELECT id FROM outbox WHERE status = 'queued' AND next_attempt_at <= ? AND lease_until <= ?
       ORDER BY next_attempt_at, seq LIMIT ?`,
    ),
    lease: db.prepare<[string, number, string], Row>(
      'UPDATE outbox SET lease_owner = ?, lease_until = ?, attempts = attempts + 1 WHERE id = ? RETURNING *',
    ),
    sent: db.prepare(
      `UPDATE outbox SET status = 'sent', sent_at = ?, body_text = '', body_html = NULL, last_error = NULL,
         lease_owner = NULL, lease_until = 0
       WHERE id = ? AND status = 'queued' AND lease_owner = ?`,
    ),
    retryLater: db.prepare(
      `UPDATE outbox SET next_attempt_at = ?, last_error = ?, lease_owner = NULL, lease_until = 0
       WHERE id = ? AND status = 'queued' AND lease_owner = ?`,
    ),
    dead: db.prepare(
      `UPDATE outbox SET status = 'dead', last_error = ?, lease_owner = NULL, lease_until = 0
       WHERE id = ? AND status = 'queued' AND lease_owner = ?`,
    ),
    byId: db.prepare<[string], Row>('SELECT * FROM outbox WHERE id = ?'),
    holds: db.prepare<[string], { held: number }>('SELECT 1 AS held FROM outbox WHERE id = ?'),
    requeue: db.prepare<[number, number, string], Row>(
      `UPDATE outbox SET status = 'queued', next_attempt_at = ?, deadline = ?, lease_owner = NULL, lease_until = 0
       WHERE id = ? AND status <> 'sent' RETURNING *`,
    ),
    counts: db.prepare<[], { status: OutboxStatus; count: number }>(
      'SELECT status, count(*) AS count FROM outbox GROUP BY status',
    ),
    pruneSent: db.prepare("DELETE FROM outbox WHERE status = 'sent' AND sent_at < ?"),
    forgetRecipient: db.prepare('DELETE FROM outbox WHERE lower(recipient) = lower(?)'),
    oldestQueued: db.prepare<[], { created_at: number }>(
      "SELECT created_at FROM outbox WHERE status = 'queued' ORDER BY seq LIMIT 1",
    ),
  };
  const pages = {
    all: db.prepare<[number, number], Row>('SELECT * FROM outbox WHERE seq < ? ORDER BY seq DESC LIMIT ?'),
    byStatus: db.prepare<[string, number, number], Row>(
      'SELECT * FROM outbox WHERE status = ? AND seq < ? ORDER BY seq DESC LIMIT ?',
    ),
  };

  const settleSent = db.transaction((ids: readonly string[], owner: string, now: number) =>
    ids.filter((id) => statements.sent.run(now, id, owner).changes === 1),
  );
  const claim = db.transaction((owner: string, now: number, leaseMs: number, limit: number) =>
    statements.due.all(now, now, limit).map(({ id }) => toMessage(statements.lease.get(owner, now + leaseMs, id)!)),
  );

  return {
    async enqueue(message, now, deadline) {
      const { id, channel, to, subject, text, html, messageId } = message;
      statements.insert.run(id, channel, to, subject, text, html, messageId, now, now, deadline);
    },
    async holds(id) {
      return statements.holds.get(id) !== undefined;
    },
    async claimDue(owner, now, leaseMs, limit) {
      return claim.immediate(owner, now, leaseMs, limit);
    },
    async markSent(ids, owner, now) {
      return settleSent.immediate(ids, owner, now);
    },
    async markFailed(id, owner, error, retryAt) {
      const changed =
        retryAt === null ? statements.dead.run(error, id, owner) : statements.retryLater.run(retryAt, error, id, owner);
      return changed.changes === 1;
    },
    async retry(id, now, deadline) {
      const row = statements.requeue.get(now, deadline, id);
      if (row) return toMessage(row);
      return statements.byId.get(id) ? 'sent' : null;
    },
    async list({ status, limit, before }) {
      const from = before === undefined ? Number.MAX_SAFE_INTEGER : Number(before);
      const rows = status ? pages.byStatus.all(status, from, limit + 1) : pages.all.all(from, limit + 1);
      const page = rows.slice(0, limit);
      return { messages: page.map(toMessage), nextCursor: rows.length > limit ? String(page.at(-1)!.seq) : null };
    },
    async counts() {
      const counts = { queued: 0, sent: 0, dead: 0 };
      for (const { status, count } of statements.counts.all()) counts[status] = count;
      return counts;
    },
    async pruneSent(before) {
      return statements.pruneSent.run(before).changes;
    },
    async forgetRecipient(to) {
      const forgotten = statements.forgetRecipient.run(to).changes;
      // secure_delete zeroed the rows' pages in the file; the WAL keeps them until truncated.
      if (forgotten > 0) db.pragma('wal_checkpoint(TRUNCATE)');
      return forgotten;
    },
    async oldestQueuedAt() {
      return statements.oldestQueued.get()?.created_at ?? null;
    },
    async close() {
      db.close();
    },
  };
}
