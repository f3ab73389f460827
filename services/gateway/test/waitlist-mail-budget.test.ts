import { seedCharities, seedShirts } from '@qrshirt/core';
import { type LocalSmtp, newClient, startSmtpServer, uniqueEmail, WAIT_MS } from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxSent } from './support/outbox';
import { startTestServer, type TestServer } from './support/test-server';

const TYPED_NAME = 'Hello You won a prize at https://evil.example/claim';
const DAY_SECONDS = 24 * 60 * 60;

/** Four shirts in three sizes each, for two charities: 24 different joins. */
const shirts = seedShirts.filter((shirt) => shirt.sizes.length >= 3).slice(0, 4);
const charities = seedCharities.slice(0, 2);
const joins = (email: string) =>
  shirts.flatMap((shirt) =>
    shirt.sizes.slice(0, 3).flatMap((size) =>
      charities.map((charity) => ({
        shirtId: shirt.shirtId,
        selectedSize: size,
        selectedCharity: charity.charityId,
        name: TYPED_NAME,
        email,
      })),
    ),
  );

/**
 * What is said to the address, once the outbox has sent every message to it: each is stored before
 * the request that asked for it is answered, so none is still to come, and a sent one is never sent again.
 */
async function mailsSettled(smtp: LocalSmtp, dataDir: string, address: string) {
  await outboxSent(dataDir, { to: address });
  return smtp.messages.filter((message) => message.to === address.toLowerCase());
}

describe('mail a stranger can make us send (no open relay)', () => {
  let smtp: LocalSmtp;
  let server: TestServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  it('mails an address at most 3 waitlist confirmations a day however it is joined, none with what the joiner typed', async () => {
    expect(joins('x').length).toBe(24);
    const victim = uniqueEmail('victim');
    const attacker = newClient();
    const answers = [];
    for (const body of joins(victim))
      answers.push(await server.api('POST', '/api/waitlist', { body, headers: attacker }));

    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused).toHaveLength(21);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.body).toEqual({
        error: 'Too many emails were asked for this address, or from your network. Please try again later.',
        code: 'too-many-requests',
      });
      const retryAfter = Number(answer.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(DAY_SECONDS - 600);
      expect(retryAfter).toBeLessThanOrEqual(DAY_SECONDS);
    }

    // Nothing was stored for the refused ones: the list holds the three that were mailed.
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    expect((await server.api('GET', '/api/waitlist')).body.total).toBe(3);

    const mails = await mailsSettled(smtp, server.dataDir, victim);
    expect(mails).toHaveLength(3);
    for (const mail of mails) {
      expect(mail.text).toContain('Hello, one click to keep your place');
      for (const part of [mail.subject, mail.text, mail.html]) {
        expect(part).not.toContain('evil.example');
        expect(part).not.toContain('won a prize');
      }
    }
    // 24 tries spent the client's own budget too (every try counts), not another client's.
    const bystander = joins(uniqueEmail('bystander'))[0];
    expect((await server.api('POST', '/api/waitlist', { body: bystander, headers: attacker })).status).toBe(429);
    expect((await server.api('POST', '/api/waitlist', { body: bystander, headers: newClient() })).status).toBe(201);
  });

  it('spends no budget on a repeated join, which mails nothing', async () => {
    const email = uniqueEmail('repeat');
    const client = newClient();
    const [first, second, third, fourth] = joins(email);
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await server.api('POST', '/api/waitlist', { body: first, headers: client })).status).toBe(201);
    }
    for (const body of [second, third]) {
      expect((await server.api('POST', '/api/waitlist', { body, headers: client })).status).toBe(201);
    }
    expect((await server.api('POST', '/api/waitlist', { body: fourth, headers: client })).status).toBe(429);
    expect(await mailsSettled(smtp, server.dataDir, email)).toHaveLength(3);
  });

  it('lets one client ask for at most 20 such mails an hour, to any addresses, reset links included', async () => {
    const client = newClient();
    for (let join = 1; join <= 15; join++) {
      const body = joins(uniqueEmail('many'))[0];
      expect((await server.api('POST', '/api/waitlist', { body, headers: client })).status).toBe(201);
    }
    for (let reset = 1; reset <= 5; reset++) {
      const body = { email: uniqueEmail('reset') };
      expect((await server.api('POST', '/api/auth/password-reset', { body, headers: client })).status).toBe(202);
    }
    const refused = await server.api('POST', '/api/waitlist', { body: joins(uniqueEmail('late'))[0], headers: client });
    expect(refused.status).toBe(429);
    expect(
      (await server.api('POST', '/api/waitlist', { body: joins(uniqueEmail('else'))[0], headers: newClient() })).status,
    ).toBe(201);
  });

  it('counts reset links against the same budget of the address as waitlist confirmations', async () => {
    const email = uniqueEmail('shared');
    const client = newClient();
    const [first, second] = joins(email);
    for (const body of [first, second]) {
      expect((await server.api('POST', '/api/waitlist', { body, headers: client })).status).toBe(201);
    }
    expect(
      (await server.api('POST', '/api/auth/password-reset', { body: { email }, headers: newClient() })).status,
    ).toBe(202);
    expect(
      (await server.api('POST', '/api/auth/password-reset', { body: { email }, headers: newClient() })).status,
    ).toBe(429);
    expect(await mailsSettled(smtp, server.dataDir, email)).toHaveLength(3);
  });
});
