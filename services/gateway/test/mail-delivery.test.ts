import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { adminOutboxPage, authSession } from '@qrshirt/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  eventually,
  latestMail,
  type LocalSmtp,
  mailsTo,
  newClient,
  signUp,
  startSmtpServer,
  uniqueEmail,
  waitFor,
} from '@qrshirt/test-support';
import { DAY, MINUTE, testClock } from './support/accounts';
import { startTestServer, type TestServer } from './support/test-server';
import { ADMIN_EMAIL } from './support/admin';
import { outboxMessages, outboxSent } from './support/outbox';

const storedMessageIds = (dataDir: string, address: string) =>
  outboxMessages(dataDir, address).map((message) => message.messageId);

/**
 * Once the outbox has recorded the failure of the `attempts`-th try of the only message to
 * `address`: the sender is past that try, and waits for the next one's time.
 */
const failedTryRecorded = (dataDir: string, address: string, attempts: number) =>
  waitFor(
    `try ${attempts} to ${address} recorded as failed`,
    () => outboxMessages(dataDir, address),
    ([message]) =>
      message?.status === 'queued' && !message.leased && message.lastError !== null && message.attempts >= attempts,
  );

const withId = (smtp: LocalSmtp, messageId: string) =>
  smtp.messages.filter((message) => message.messageId === messageId);

describe('mail through a real SMTP server', () => {
  let smtp: LocalSmtp;
  let server: TestServer;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    // The real clock: a try that fails on a busy machine is made again 5 s later, as in
    // production, where a frozen test clock would never make it due.
    server = await startTestServer({ env: { SMTP_URL: smtp.url, PUBLIC_BASE_URL: 'https://shirts.example' } });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  it('delivers the sign-up mail with a text and an HTML part, the product name, a footer and its stored Message-ID', async () => {
    const email = uniqueEmail('delivered').toLowerCase();
    await signUp(server.api, { email });
    await smtp.waitFor((messages) => messages.some((message) => message.to === email));
    const received = smtp.messages.find((message) => message.to === email)!;
    expect(received.subject).toBe('Confirm your email address');
    expect(received.text).toMatch(/https:\/\/shirts\.example\/verify-email#token=[\w-]{43}/);
    expect(received.html).toMatch(/href="https:\/\/shirts\.example\/verify-email#token=[\w-]{43}"/);
    for (const part of [received.text, received.html]) {
      expect(part).toContain('QR Shirts');
      expect(part).toContain('replies are not read');
    }
    expect(received.messageId).toMatch(/^<[0-9a-f-]{36}@qrshirts\.example>$/);
    expect(storedMessageIds(server.dataDir, email)).toEqual([received.messageId]);
    // Nothing is written to files when SMTP is configured.
    expect(await mailsTo(server.dataDir, email)).toEqual([]);
  });

  it('counts what it sent in the metrics', async () => {
    const sentCounted = /^outbox_messages_sent_total\{[^}]*channel="email"[^}]*\} [1-9]/m;
    // Counted once the outbox recorded the delivery, a moment after the SMTP server took it.
    const metrics = await eventually(
      async () => (await fetch(`${server.opsUrl}/metrics`)).text(),
      (text) => sentCounted.test(text),
    );
    expect(metrics).toMatch(sentCounted);
    expect(metrics).toMatch(/^outbox_messages_queued\{[^}]*\} 0$/m);
    expect(metrics).toMatch(/^outbox_oldest_queued_age_seconds\{[^}]*\} 0$/m);
    expect(metrics).toMatch(/^# TYPE outbox_send_failures_total counter$/m);
    expect(metrics).toMatch(/^# TYPE outbox_messages_dead_total counter$/m);
  });
});

describe('a mail server that refuses at first', () => {
  let smtp: LocalSmtp;
  let server: TestServer;
  const time = testClock();
  afterEach(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  it('is tried again with a growing wait, and gets the message exactly once', async () => {
    smtp = await startSmtpServer({ refuse: 2 });
    server = await startTestServer({ clock: time.clock, env: { SMTP_URL: smtp.url } });
    const email = uniqueEmail('patient').toLowerCase();
    // The request is answered at once: a mail that cannot be delivered never fails it.
    await signUp(server.api, { email });
    // The clock moves only once a failure is recorded: its next try is timed from it.
    await failedTryRecorded(server.dataDir, email, 1);
    expect(smtp.refused()).toBe(1);
    // The next try waits about 5 s, then about 10 s: the sender follows the (test) clock.
    time.advance(6_000);
    await failedTryRecorded(server.dataDir, email, 2);
    expect(smtp.refused()).toBe(2);
    time.advance(12_000);
    // Recorded as sent, it is never tried again: what the server has by then is all it gets.
    const [sent] = await outboxSent(server.dataDir, { to: email });
    expect(withId(smtp, sent!.messageId)).toHaveLength(1);
    const metrics = await (await fetch(`${server.opsUrl}/metrics`)).text();
    expect(metrics).toMatch(/^outbox_send_failures_total\{[^}]*channel="email"[^}]*\} 2$/m);
  });
});

describe('a mail server that is down across a restart of the product', () => {
  it('gets the message after the restart, once, with the Message-ID it was given when stored', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-mail-restart-'));
    const smtp = await startSmtpServer();
    await smtp.stop();
    const env = { SMTP_URL: smtp.url };
    let server = await startTestServer({ dataDir, env });
    try {
      const email = uniqueEmail('later').toLowerCase();
      await signUp(server.api, { email });
      const [messageId] = storedMessageIds(dataDir, email);
      expect(messageId).toBeDefined();
      // The first try finds nobody listening.
      await failedTryRecorded(dataDir, email, 1);
      await server.stop();

      await smtp.start();
      // Due again about 5 s after the failed try; a restarted product finds it in its store.
      server = await startTestServer({ dataDir, env });
      await outboxSent(dataDir, { to: email });
      expect(withId(smtp, messageId!)).toHaveLength(1);
      expect(smtp.messages.find((message) => message.messageId === messageId)!.subject).toBe(
        'Confirm your email address',
      );
    } finally {
      await server.stop();
      await smtp.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the admin outbox', () => {
  it('lists messages with masked addresses, retries a dead one, and refuses to resend a sent one', async () => {
    const time = testClock();
    let smtp = await startSmtpServer();
    const server = await startTestServer({ clock: time.clock, env: { SMTP_URL: smtp.url, ADMIN_EMAILS: ADMIN_EMAIL } });
    try {
      const signedUp = await signUp(server.api, { email: ADMIN_EMAIL });
      const [link] = await smtp.waitFor((received) => received.length === 1);
      const token = /verify-email#token=([\w-]+)/.exec(link!.text)![1];
      expect((await server.api('POST', '/api/auth/verify-email', { ...as(signedUp), body: { token } })).status).toBe(
        200,
      );
      // The test clock runs ahead by a day below: sign in afresh for tokens that are still valid.
      const signIn = async (email: string) =>
        authSession.parse(
          (await server.api('POST', '/api/auth/signin', { body: { email, password: 'correct horse' } })).body,
        );
      const list = async (query = '') => {
        const answer = await server.api('GET', `/api/admin/outbox${query}`, as(await signIn(ADMIN_EMAIL)));
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        return adminOutboxPage.parse(answer.body);
      };

      // A mail server that refuses everything from now on: the member's mail fails until its window ends.
      await smtp.stop();
      smtp = await startSmtpServer({ port: smtp.port, refuse: Number.MAX_SAFE_INTEGER });
      await signUp(server.api, { email: 'member@example.net' });
      // Its first failure recorded before the clock passes the window: the last try is another one.
      await failedTryRecorded(server.dataDir, 'member@example.net', 1);
      time.advance(DAY + MINUTE);
      await expect.poll(async () => (await list()).counts.dead).toBe(1);

      const admin = await signIn(ADMIN_EMAIL);
      const member = await signIn('member@example.net');
      const { messages, counts } = await list();
      expect(counts).toEqual({ queued: 0, sent: 1, dead: 1 });
      expect(messages.map((message) => message.to)).toEqual(['m***@example.net', 'o***@example.org']);
      const dead = messages[0]!;
      expect(dead).toMatchObject({
        channel: 'email',
        subject: 'Confirm your email address',
        status: 'dead',
        nextAttemptAt: null,
      });
      expect(dead.attempts).toBeGreaterThanOrEqual(2);
      expect(dead.lastError).toMatch(/Try again later/);
      expect(JSON.stringify(messages)).not.toMatch(/member@|ops@/);
      expect((await list('?status=dead')).messages.map((message) => message.id)).toEqual([dead.id]);
      expect((await list('?limit=1')).nextCursor).not.toBeNull();

      await smtp.stop();
      smtp = await startSmtpServer({ port: smtp.port });
      const retried = await server.api('POST', `/api/admin/outbox/${dead.id}/retry`, as(admin));
      expect(retried).toMatchObject({ status: 200, body: { id: dead.id, status: 'queued' } });
      await smtp.waitFor((received) => received.some((message) => message.to === 'member@example.net'));
      await expect
        .poll(async () => (await list('?status=sent')).messages.map((message) => message.id))
        .toContain(dead.id);
      const resent = await server.api('POST', `/api/admin/outbox/${dead.id}/retry`, as(admin));
      expect({ status: resent.status, body: resent.body }).toEqual({
        status: 409,
        body: { error: 'This message was sent already' },
      });

      expect(await server.api('POST', '/api/admin/outbox/no-such-message/retry', as(admin))).toMatchObject({
        status: 404,
      });
      expect(await server.api('GET', '/api/admin/outbox?cursor=abc', as(admin))).toMatchObject({ status: 400 });
      expect(await server.api('GET', '/api/admin/outbox?status=lost', as(admin))).toMatchObject({ status: 400 });
      expect((await server.api('GET', '/api/admin/outbox', as(member))).status).toBe(403);
      expect((await server.api('POST', `/api/admin/outbox/${dead.id}/retry`, as(member))).status).toBe(403);

      // Sent messages' records are forgotten after 30 days.
      time.advance(31 * DAY);
      await expect.poll(async () => (await list()).counts).toEqual({ queued: 0, sent: 0, dead: 0 });
    } finally {
      await server.stop();
      await smtp.stop();
    }
  });
});

describe('without SMTP_URL', () => {
  it('deletes the mail and texts it wrote once they are 7 days old, and nothing it did not write', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-mail-files-'));
    const stamp = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY).toISOString().replace(/[:.]/g, '-');
    const files = {
      'mail/old': `${stamp(7.1)}-${randomUUID()}.eml`,
      'mail/recent': `${stamp(6.9)}-${randomUUID()}.eml`,
      'mail/not ours': 'notes.eml',
      'sms/old': `${stamp(8)}-${randomUUID()}.txt`,
      'sms/recent': `${stamp(1)}-${randomUUID()}.txt`,
    };
    for (const [place, name] of Object.entries(files)) {
      const folder = path.join(dataDir, place.split('/')[0]!);
      await mkdir(folder, { recursive: true, mode: 0o700 });
      await writeFile(path.join(folder, name), 'To: someone@example.com\n\nhello\n', { mode: 0o600 });
    }
    const present = async () => {
      const [mail, sms] = await Promise.all(['mail', 'sms'].map((folder) => readdir(path.join(dataDir, folder))));
      return Object.keys(files).filter((place) => [...mail!, ...sms!].includes(files[place as keyof typeof files]));
    };
    // Its sender looks as it starts, then every hour.
    const server = await startTestServer({ dataDir });
    try {
      await expect.poll(present).toEqual(['mail/recent', 'mail/not ours', 'sms/recent']);
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('writes each mail as an .eml file with both parts', async () => {
    const server = await startTestServer();
    try {
      const email = uniqueEmail('file');
      await signUp(server.api, { email });
      const mail = await latestMail(server.dataDir, email);
      expect(mail.file).toMatch(/^\d{4}-\d\d-\d\dT[\d-]+Z-[0-9a-f-]{36}\.eml$/);
      expect(mail.subject).toBe('Confirm your email address');
      expect(mail.text).toContain('/verify-email#token=');
      expect(mail.html).toContain('/verify-email#token=');
      expect(mail.messageId).toMatch(/^<[0-9a-f-]{36}@qrshirts\.example>$/);
      expect(
        (await server.api('POST', '/api/auth/password-reset', { body: { email }, headers: newClient() })).status,
      ).toBe(202);
    } finally {
      await server.stop();
    }
  });
});
