import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewOutboxMessage, OutboxStore } from './outbox-store';

/**
 * The behaviour every outbox store adapter must show. `connect` opens a client onto one shared,
 * empty store, as each gateway process would.
 */
export function describeOutboxStoreContract(name: string, connect: () => OutboxStore | Promise<OutboxStore>): void {
  describe(`${name} outbox store contract`, () => {
    let store: OutboxStore;
    let other: OutboxStore;
    const NOW = Date.parse('2030-01-01T00:00:00Z');
    const DAY = 24 * 3_600_000;
    const LEASE = 60_000;

    const message = (overrides: Partial<NewOutboxMessage> = {}): NewOutboxMessage => {
      const id = randomUUID();
      return {
        id,
        channel: 'email',
        to: 'ada@example.com',
        subject: 'Confirm your email address',
        text: 'Open https://shop.example/verify-email#token=secret',
        html: '<p>Open it</p>',
        messageId: `<${id}@qrshirts.example>`,
        ...overrides,
      };
    };

    beforeEach(async () => {
      store = await connect();
      other = await connect();
    });
    afterEach(async () => {
      await store.close();
      await other.close();
    });

    it('hands a stored message, whole, to the first sender that claims it, and to no other while leased', async () => {
      const stored = message();
      await store.enqueue(stored, NOW, NOW + DAY);
      const [claimed] = await other.claimDue('sender-a', NOW, LEASE, 10);
      expect(claimed).toEqual({
        ...stored,
        status: 'queued',
        attempts: 1,
        createdAt: NOW,
        nextAttemptAt: NOW,
        deadline: NOW + DAY,
        sentAt: null,
        lastError: null,
      });
      expect(await store.claimDue('sender-b', NOW + LEASE - 1, LEASE, 10)).toEqual([]);
    });

    it('keeps the first of two messages with one id, whichever client stores the second, even once sent', async () => {
      const first = message();
      await Promise.all([
        store.enqueue(first, NOW, NOW + DAY),
        other.enqueue({ ...first, subject: 'A second copy' }, NOW, NOW + DAY),
      ]);
      await store.enqueue({ ...first, subject: 'A third copy' }, NOW + 1, NOW + DAY);
      const claimed = await other.claimDue('sender-a', NOW + 1, LEASE, 10);
      expect(claimed.map((each) => each.id)).toEqual([first.id]);
      expect(await store.markSent([first.id], 'sender-a', NOW + 2)).toEqual([first.id]);
      await other.enqueue({ ...first, subject: 'After it was sent' }, NOW + 3, NOW + DAY);
      expect(await store.claimDue('sender-b', NOW + 3, LEASE, 10)).toEqual([]);
      expect(await store.counts()).toEqual({ queued: 0, sent: 1, dead: 0 });
      expect((await store.list({ limit: 10 })).messages).toEqual([
        expect.objectContaining({ id: first.id, status: 'sent' }),
      ]);
    });

    it('says which ids it holds, to every client, in any state, until the message is forgotten', async () => {
      const first = message();
      expect(await other.holds(first.id)).toBe(false);
      await store.enqueue(first, NOW, NOW + DAY);
      expect(await other.holds(first.id)).toBe(true);
      await other.claimDue('sender-a', NOW, LEASE, 10);
      await other.markSent([first.id], 'sender-a', NOW + 1);
      expect(await store.holds(first.id)).toBe(true);
      await store.forgetRecipient(first.to);
      expect(await other.holds(first.id)).toBe(false);
    });

    it('gives each of many messages to exactly one of two senders claiming at once', async () => {
      const ids = new Set<string>();
      for (let index = 0; index < 30; index++) {
        const each = message({ channel: index % 2 ? 'sms' : 'email', html: index % 2 ? null : '<p>x</p>' });
        ids.add(each.id);
        await store.enqueue(each, NOW, NOW + DAY);
      }
      const claims = await Promise.all(
        Array.from({ length: 6 }, (_, index) => (index % 2 ? store : other).claimDue(`sender-${index}`, NOW, LEASE, 7)),
      );
      const claimed = claims.flat().map((each) => each.id);
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(new Set(claimed)).toEqual(new Set([...ids].filter((id) => claimed.includes(id))));
      expect(claimed.length).toBe(30);
    });

    it('hands a message whose lease ran out to another sender, and ignores the first one’s late outcome', async () => {
      const stored = message();
      await store.enqueue(stored, NOW, NOW + DAY);
      await store.claimDue('stalled', NOW, LEASE, 10);
      const [retaken] = await other.claimDue('healthy', NOW + LEASE, LEASE, 10);
      expect(retaken).toMatchObject({ id: stored.id, attempts: 2, messageId: stored.messageId });
      expect(await store.markSent([stored.id], 'stalled', NOW + LEASE + 1)).toEqual([]);
      expect(await store.markFailed(stored.id, 'stalled', 'late', NOW + 2 * LEASE)).toBe(false);
      expect(await other.markSent([stored.id], 'healthy', NOW + LEASE + 2)).toEqual([stored.id]);
      expect(await store.counts()).toEqual({ queued: 0, sent: 1, dead: 0 });
    });

    it('forgets a sent message’s body, keeps its record, and never hands it out again', async () => {
      const stored = message();
      await store.enqueue(stored, NOW, NOW + DAY);
      await store.claimDue('a', NOW, LEASE, 10);
      expect(await store.markSent([stored.id], 'a', NOW + 5)).toEqual([stored.id]);
      expect(await other.claimDue('b', NOW + 10 * LEASE, LEASE, 10)).toEqual([]);
      const { messages } = await other.list({ limit: 10 });
      expect(messages).toEqual([
        expect.objectContaining({ id: stored.id, status: 'sent', sentAt: NOW + 5, text: '', html: null }),
      ]);
      expect(await store.retry(stored.id, NOW + 6, NOW + DAY)).toBe('sent');
    });

    it('records a batch of deliveries at once, only those the sender still holds', async () => {
      const [mine, lost] = [message(), message()];
      await store.enqueue(mine, NOW, NOW + DAY);
      await store.enqueue(lost, NOW + 1, NOW + DAY);
      await store.claimDue('a', NOW + 1, LEASE, 10);
      // `lost`'s lease ran out and another sender took it.
      await store.markFailed(lost.id, 'a', 'timeout', NOW + 2);
      await other.claimDue('b', NOW + 2, LEASE, 10);
      expect(await store.markSent([mine.id, lost.id], 'a', NOW + 3)).toEqual([mine.id]);
      expect(await store.counts()).toEqual({ queued: 1, sent: 1, dead: 0 });
    });

    it('retries a failed message when it is due again, then lets it die', async () => {
      const stored = message();
      await store.enqueue(stored, NOW, NOW + DAY);
      await store.claimDue('a', NOW, LEASE, 10);
      expect(await store.markFailed(stored.id, 'a', '451 Try again later', NOW + 5_000)).toBe(true);
      expect(await other.claimDue('b', NOW + 4_999, LEASE, 10)).toEqual([]);
      const [again] = await other.claimDue('b', NOW + 5_000, LEASE, 10);
      expect(again).toMatchObject({
        id: stored.id,
        attempts: 2,
        lastError: '451 Try again later',
        nextAttemptAt: NOW + 5_000,
      });
      expect(await other.markFailed(stored.id, 'b', '550 No such user', null)).toBe(true);
      expect(await store.counts()).toEqual({ queued: 0, sent: 0, dead: 1 });
      expect(await store.claimDue('c', NOW + 2 * DAY, LEASE, 10)).toEqual([]);
      const { messages } = await store.list({ status: 'dead', limit: 5 });
      expect(messages).toEqual([
        expect.objectContaining({ id: stored.id, status: 'dead', attempts: 2, lastError: '550 No such user' }),
      ]);
    });

    it('lets an admin send a dead or waiting message again now, with a fresh window', async () => {
      const dead = message();
      await store.enqueue(dead, NOW, NOW + DAY);
      await store.claimDue('a', NOW, LEASE, 10);
      await store.markFailed(dead.id, 'a', 'refused', null);
      const later = NOW + 3 * DAY;
      expect(await other.retry(dead.id, later, later + DAY)).toMatchObject({
        id: dead.id,
        status: 'queued',
        nextAttemptAt: later,
        deadline: later + DAY,
        text: dead.text,
      });
      expect((await store.claimDue('b', later, LEASE, 10)).map((each) => each.id)).toEqual([dead.id]);
      expect(await store.retry(randomUUID(), later, later + DAY)).toBeNull();
    });

    it('lists newest first, by status, a page at a time, and counts each status', async () => {
      const stored: NewOutboxMessage[] = [];
      for (let index = 0; index < 5; index++) {
        stored.push(message({ subject: `no. ${index}` }));
        await store.enqueue(stored[index]!, NOW + index, NOW + DAY);
      }
      await store.claimDue('a', NOW + 10, LEASE, 1);
      await store.markSent([stored[0]!.id], 'a', NOW + 11);

      const first = await other.list({ limit: 2 });
      expect(first.messages.map((each) => each.subject)).toEqual(['no. 4', 'no. 3']);
      const second = await other.list({ limit: 2, before: first.nextCursor! });
      expect(second.messages.map((each) => each.subject)).toEqual(['no. 2', 'no. 1']);
      const last = await other.list({ limit: 2, before: second.nextCursor! });
      expect(last).toEqual({ messages: [expect.objectContaining({ subject: 'no. 0' })], nextCursor: null });

      const queued = await other.list({ status: 'queued', limit: 10 });
      expect(queued.messages.map((each) => each.subject)).toEqual(['no. 4', 'no. 3', 'no. 2', 'no. 1']);
      expect((await other.list({ status: 'sent', limit: 10 })).messages.map((each) => each.subject)).toEqual(['no. 0']);
      expect(await store.counts()).toEqual({ queued: 4, sent: 1, dead: 0 });
      expect(await store.oldestQueuedAt()).toBe(NOW + 1);
    });

    it('forgets sent messages delivered before a time, and keeps waiting and dead ones', async () => {
      const [old, recent, waiting, dead] = [message(), message(), message(), message()];
      for (const [index, each] of [old, recent, waiting, dead].entries())
        await store.enqueue(each, NOW + index, NOW + DAY);
      await store.claimDue('a', NOW + 10, LEASE, 10);
      await store.markSent([old.id], 'a', NOW + 100);
      await store.markSent([recent.id], 'a', NOW + 300);
      await store.markFailed(waiting.id, 'a', 'later', NOW + 5_000);
      await store.markFailed(dead.id, 'a', 'never', null);
      expect(await other.pruneSent(NOW + 200)).toBe(1);
      expect(await store.pruneSent(NOW + 200)).toBe(0);
      expect((await store.list({ limit: 10 })).messages.map((each) => each.id).sort()).toEqual(
        [recent.id, waiting.id, dead.id].sort(),
      );
      expect(await store.counts()).toEqual({ queued: 1, sent: 1, dead: 1 });
    });

    it('forgets every message to an address, in any case and state, and no other', async () => {
      const [waiting, sent, dead, leased] = [
        message({ to: 'Ada@Example.com' }),
        message(),
        message({ to: 'ADA@example.com' }),
        message(),
      ];
      const kept = message({ to: 'grace@example.com' });
      for (const [index, each] of [waiting, sent, dead].entries()) await store.enqueue(each, NOW + index, NOW + DAY);
      await store.claimDue('a', NOW + 2, LEASE, 10);
      await store.markSent([sent.id], 'a', NOW + 10);
      await store.markFailed(waiting.id, 'a', 'later', NOW + 5_000);
      await store.markFailed(dead.id, 'a', 'never', null);
      await store.enqueue(leased, NOW + 20, NOW + DAY);
      expect(await store.claimDue('a', NOW + 20, LEASE, 10)).toEqual([expect.objectContaining({ id: leased.id })]);
      await store.enqueue(kept, NOW + 30, NOW + DAY);

      expect(await other.forgetRecipient('ada@EXAMPLE.com')).toBe(4);
      expect(await store.forgetRecipient('ada@example.com')).toBe(0);
      expect((await store.list({ limit: 10 })).messages.map((each) => each.id)).toEqual([kept.id]);
      expect(await store.counts()).toEqual({ queued: 1, sent: 0, dead: 0 });
      // The sender still holding a forgotten message's lease cannot bring it back.
      expect(await store.markSent([leased.id], 'a', NOW + 40)).toEqual([]);
      expect(await store.claimDue('b', NOW + 6_000, LEASE, 10)).toEqual([expect.objectContaining({ id: kept.id })]);
    });

    it('has no oldest queued message when none waits', async () => {
      expect(await store.oldestQueuedAt()).toBeNull();
      expect(await store.counts()).toEqual({ queued: 0, sent: 0, dead: 0 });
      expect(await store.list({ limit: 10 })).toEqual({ messages: [], nextCursor: null });
    });
  });
}
