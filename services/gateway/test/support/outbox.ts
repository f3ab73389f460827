import path from 'node:path';
import Database from 'better-sqlite3';
import { waitFor } from '@qrshirt/test-support';

interface StoredMessage {
  messageId: string;
  channel: 'email' | 'sms' | 'webhook';
  to: string;
  subject: string;
  status: 'queued' | 'sent' | 'dead';
  attempts: number;
  lastError: string | null;
  /** A sender holds it: a try is under way. */
  leased: boolean;
}

/**
 * The messages the outbox in `dataDir` holds, oldest first, read from its file as an operator
 * could; `to` keeps those to one address (any case).
 */
export function outboxMessages(dataDir: string, to?: string): StoredMessage[] {
  const db = new Database(path.join(dataDir, 'outbox.sqlite'), { readonly: true });
  try {
    const columns = `message_id AS messageId, channel, recipient AS "to", subject, status, attempts,
      last_error AS lastError, lease_owner IS NOT NULL AS leased`;
    type Row = Omit<StoredMessage, 'leased'> & { leased: number };
    const rows =
      to === undefined
        ? db.prepare<[], Row>(`SELECT ${columns} FROM outbox ORDER BY seq`).all()
        : db
            .prepare<[string], Row>(`SELECT ${columns} FROM outbox WHERE lower(recipient) = lower(?) ORDER BY seq`)
            .all(to);
    return rows.map((row) => ({ ...row, leased: Boolean(row.leased) }));
  } finally {
    db.close();
  }
}

/**
 * Once every message the outbox holds (for `to`, when given) is recorded as sent, and answers
 * them. A message is stored before the request that asked for it is answered, and a sent one is
 * never sent again: what has arrived by then is all that will, for what was asked so far.
 */
export function outboxSent(
  dataDir: string,
  { to, timeoutMs }: { to?: string; timeoutMs?: number } = {},
): Promise<StoredMessage[]> {
  return waitFor(
    `every message in the outbox${to === undefined ? '' : ` to ${to}`} sent`,
    () => outboxMessages(dataDir, to),
    (messages) => messages.every((message) => message.status === 'sent'),
    { timeoutMs },
  );
}
