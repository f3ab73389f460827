import type { OutboxStatus } from '@qrshirt/contracts';
import { Redis } from 'ioredis';
import type { OutboxMessage, OutboxStore } from '@qrshirt/core';

/*
 * Keys: `<prefix>:m:<id>` a hash per message; `<prefix>:seq` the counter that orders them;
 * `<prefix>:s:<status>` a sorted set per status scored by that order (pages, counts, the oldest
 * queued one); `<prefix>:due` the queued messages scored by when a sender may next take them:
 * their next attempt, or the end of the lease that holds them. Each change is one Lua script, so
 * it is atomic across gateways: of two senders claiming at once, each message goes to one.
 */

const ENQUEUE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local seq = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], 'seq', seq, 'id', ARGV[1], 'channel', ARGV[2], 'to', ARGV[3], 'subject', ARGV[4],
  'text', ARGV[5], 'html', ARGV[6], 'messageId', ARGV[7], 'status', 'queued', 'attempts', 0,
  'createdAt', ARGV[8], 'nextAttemptAt', ARGV[8], 'deadline', ARGV[9], 'sentAt', '', 'lastError', '', 'owner', '')
redis.call('ZADD', KEYS[3], seq, ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[8], ARGV[1])
return seq`;

const CLAIM = `
local ids = redis.call('ZRANGE', KEYS[1], '-inf', ARGV[2], 'BYSCORE', 'LIMIT', 0, tonumber(ARGV[4]))
local lease_end = tonumber(ARGV[2]) + tonumber(ARGV[3])
for _, id in ipairs(ids) do
  local key = ARGV[5] .. id
  redis.call('HSET', key, 'owner', ARGV[1])
  redis.call('HINCRBY', key, 'attempts', 1)
  redis.call('ZADD', KEYS[1], lease_end, id)
end
return ids`;

const SETTLE = `
local row = redis.call('HMGET', KEYS[1], 'status', 'owner', 'seq', 'id')
if row[1] ~= 'queued' or row[2] ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'owner', '')
if ARGV[2] == 'sent' then
  redis.call('HSET', KEYS[1], 'status', 'sent', 'sentAt', ARGV[3], 'text', '', 'html', '', 'lastError', '')
elseif ARGV[2] == 'retry' then
  redis.call('HSET', KEYS[1], 'nextAttemptAt', ARGV[3], 'lastError', ARGV[4])
  redis.call('ZADD', KEYS[2], ARGV[3], row[4])
  return 1
else
  redis.call('HSET', KEYS[1], 'status', 'dead', 'lastError', ARGV[4])
end
redis.call('ZREM', KEYS[2], row[4])
redis.call('ZREM', KEYS[3], row[4])
redis.call('ZADD', ARGV[5] .. ARGV[2], row[3], row[4])
return 1`;

const RETRY = `
local row = redis.call('HMGET', KEYS[1], 'status', 'seq', 'id')
if not row[1] then return 0 end
if row[1] == 'sent' then return 1 end
redis.call('HSET', KEYS[1], 'status', 'queued', 'nextAttemptAt', ARGV[1], 'deadline', ARGV[2], 'owner', '')
redis.call('ZREM', ARGV[3] .. 'dead', row[3])
redis.call('ZADD', ARGV[3] .. 'queued', row[2], row[3])
redis.call('ZADD', KEYS[2], ARGV[1], row[3])
return 2`;

/* The sent set is in the order messages were stored, which delivery follows closely enough: stop at the first newer one. */
const PRUNE_SENT = `
local pruned = 0
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, 999)) do
  local key = ARGV[2] .. id
  local sent_at = tonumber(redis.call('HGET', key, 'sentAt'))
  if sent_at and sent_at >= tonumber(ARGV[1]) then break end
  redis.call('DEL', key)
  redis.call('ZREM', KEYS[1], id)
  pruned = pruned + 1
end
return pruned`;

/* Reads every message's recipient: erasures are rare, and sent mail is kept only 30 days. */
const FORGET_RECIPIENT = `
local forgotten = 0
local target = string.lower(ARGV[1])
for _, status in ipairs({'queued', 'sent', 'dead'}) do
  local set = ARGV[2] .. 's:' .. status
  for _, id in ipairs(redis.call('ZRANGE', set, 0, -1)) do
    local key = ARGV[2] .. 'm:' .. id
    local to = redis.call('HGET', key, 'to')
    if to and string.lower(to) == target then
      redis.call('DEL', key)
      redis.call('ZREM', set, id)
      redis.call('ZREM', KEYS[1], id)
      forgotten = forgotten + 1
    end
  end
end
return forgotten`;

const FIELDS = [
  'seq',
  'id',
  'channel',
  'to',
  'subject',
  'text',
  'html',
  'messageId',
  'status',
  'attempts',
  'createdAt',
  'nextAttemptAt',
  'deadline',
  'sentAt',
  'lastError',
] as const;

function toMessage(values: (string | null)[]): OutboxMessage {
  const row = Object.fromEntries(FIELDS.map((field, index) => [field, values[index] ?? ''])) as Record<
    (typeof FIELDS)[number],
    string
  >;
  return {
    id: row.id,
    channel: row.channel as OutboxMessage['channel'],
    to: row.to,
    subject: row.subject,
    text: row.text,
    html: row.html === '' ? null : row.html,
    messageId: row.messageId,
    status: row.status as OutboxStatus,
    attempts: Number(row.attempts),
    createdAt: Number(row.createdAt),
    nextAttemptAt: Number(row.nextAttemptAt),
    deadline: Number(row.deadline),
    sentAt: row.sentAt === '' ? null : Number(row.sentAt),
    lastError: row.lastError === '' ? null : row.lastError,
  };
}

export interface RedisOutboxStoreOptions {
  url: string;
  /** Default 'qr:outbox'. */
  keyPrefix?: string;
}

/** The outbox in Redis, for gateways on several hosts (CREDENTIALS_STORE=redis). Redis must persist (AOF). */
export function createRedisOutboxStore({ url, keyPrefix = 'qr:outbox' }: RedisOutboxStoreOptions): OutboxStore {
  const redis = new Redis(url);
  // Connection errors reach each command's caller; without a listener ioredis would also print
  // every reconnection attempt to stderr.
  redis.on('error', () => {});
  const messageKey = (id: string) => `${keyPrefix}:m:${id}`;
  const statusKey = (status: OutboxStatus) => `${keyPrefix}:s:${status}`;
  const dueKey = `${keyPrefix}:due`;

  async function read(ids: string[]): Promise<OutboxMessage[]> {
    if (ids.length === 0) return [];
    const pipeline = redis.pipeline();
    for (const id of ids) pipeline.hmget(messageKey(id), ...FIELDS);
    const answers = (await pipeline.exec()) ?? [];
    return answers.map(([error, values]) => {
      if (error) throw error;
      return toMessage(values as (string | null)[]);
    });
  }

  const settle = (id: string, owner: string, outcome: 'sent' | 'retry' | 'dead', at: string, error = '') =>
    redis.eval(SETTLE, 3, messageKey(id), dueKey, statusKey('queued'), owner, outcome, at, error, `${keyPrefix}:s:`);

  return {
    async enqueue(message, now, deadline) {
      const { id, channel, to, subject, text, html, messageId } = message;
      await redis.eval(
        ENQUEUE,
        4,
        messageKey(id),
        `${keyPrefix}:seq`,
        statusKey('queued'),
        dueKey,
        id,
        channel,
        to,
        subject,
        text,
        html ?? '',
        messageId,
        String(now),
        String(deadline),
      );
    },
    async holds(id) {
      return (await redis.exists(messageKey(id))) === 1;
    },
    async claimDue(owner, now, leaseMs, limit) {
      const ids = (await redis.eval(
        CLAIM,
        1,
        dueKey,
        owner,
        String(now),
        String(leaseMs),
        String(limit),
        `${keyPrefix}:m:`,
      )) as string[];
      return read(ids);
    },
    async markSent(ids, owner, now) {
      const settled = await Promise.all(
        ids.map(async (id) => Number(await settle(id, owner, 'sent', String(now))) === 1),
      );
      return ids.filter((_, index) => settled[index]);
    },
    async markFailed(id, owner, error, retryAt) {
      const outcome = retryAt === null ? 'dead' : 'retry';
      return Number(await settle(id, owner, outcome, String(retryAt ?? ''), error)) === 1;
    },
    async retry(id, now, deadline) {
      const outcome = Number(
        await redis.eval(RETRY, 2, messageKey(id), dueKey, String(now), String(deadline), `${keyPrefix}:s:`),
      );
      if (outcome === 0) return null;
      if (outcome === 1) return 'sent';
      return (await read([id]))[0]!;
    },
    async list({ status, limit, before }) {
      const key = status ? statusKey(status) : null;
      const max = before === undefined ? '+inf' : `(${before}`;
      let ids: string[];
      if (key) {
        ids = await redis.zrange(key, max, '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, limit + 1);
      } else {
        // Every status's set, merged newest first: each holds its own messages in order.
        const perStatus = await Promise.all(
          (['queued', 'sent', 'dead'] as const).map((each) =>
            redis.zrange(statusKey(each), max, '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, limit + 1, 'WITHSCORES'),
          ),
        );
        const scored = perStatus.flatMap((flat) => {
          const pairs: [string, number][] = [];
          for (let index = 0; index < flat.length; index += 2) pairs.push([flat[index]!, Number(flat[index + 1])]);
          return pairs;
        });
        ids = scored
          .sort((a, b) => b[1] - a[1])
          .slice(0, limit + 1)
          .map(([id]) => id);
      }
      const messages = await read(ids.slice(0, limit));
      const last = messages.at(-1);
      const seqOf = async (id: string) => Number(await redis.hget(messageKey(id), 'seq'));
      return { messages, nextCursor: ids.length > limit && last ? String(await seqOf(last.id)) : null };
    },
    async counts() {
      const [queued, sent, dead] = await Promise.all(
        (['queued', 'sent', 'dead'] as const).map((status) => redis.zcard(statusKey(status))),
      );
      return { queued: queued!, sent: sent!, dead: dead! };
    },
    async pruneSent(before) {
      return Number(await redis.eval(PRUNE_SENT, 1, statusKey('sent'), String(before), `${keyPrefix}:m:`));
    },
    async forgetRecipient(to) {
      return Number(await redis.eval(FORGET_RECIPIENT, 1, dueKey, to, `${keyPrefix}:`));
    },
    async oldestQueuedAt() {
      const [id] = await redis.zrange(statusKey('queued'), 0, 0);
      if (!id) return null;
      return Number(await redis.hget(messageKey(id), 'createdAt'));
    },
    async close() {
      await redis.quit();
    },
  };
}
