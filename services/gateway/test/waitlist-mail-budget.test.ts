import { seedCharities, seedShirts } from '@qrshirt/core';
import { type LocalSmtp, newClient, startSmtpServer, uniqueEmail, WAIT_MS } from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxSent } from './support/outbox';
import { startTestServer, type TestServer } from './support/test-server';

const TYPED_NAME = 'Hello You won a prize at https://evil.example/claim';

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

    // Every join answers as usual: past the budget it is stored, only not mailed, so the answer
    // tells nobody what others asked for the address.
    for (const [index, answer] of answers.entries()) {
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({ success: true, data: { email: victim, name: TYPED_NAME } });
      expect(answer.body.data.selectedSize).toBe(joins(victim)[index]!.selectedSize);
    }
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    expect((await server.api('GET', '/api/waitlist')).body.total).toBe(24);

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
    const bystander = uniqueEmail('bystander');
    const [first] = joins(bystander);
    expect((await server.api('POST', '/api/waitlist', { body: first, headers: attacker })).status).toBe(201);
    expect(await mailsSettled(smtp, server.dataDir, bystander)).toEqual([]);
    expect(
      (await server.api('POST', '/api/waitlist', { body: joins(bystander)[1], headers: newClient() })).status,
    ).toBe(201);
    expect(await mailsSettled(smtp, server.dataDir, bystander)).toHaveLength(1);
  });

  it('spends no budget on a repeated join, and mails a join past the budget no more for repeating it', async () => {
    const email = uniqueEmail('repeat');
    const client = newClient();
    const [first, second, third, fourth] = joins(email);
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await server.api('POST', '/api/waitlist', { body: first, headers: client })).status).toBe(201);
    }
    for (const body of [second, third]) {
      expect((await server.api('POST', '/api/waitlist', { body, headers: client })).status).toBe(201);
    }
    expect(await mailsSettled(smtp, server.dataDir, email)).toHaveLength(3);
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await server.api('POST', '/api/waitlist', { body: fourth, headers: newClient() })).status).toBe(201);
    }
    expect(await mailsSettled(smtp, server.dataDir, email)).toHaveLength(3);
  });

  it('lets one client ask for at most 20 confirmations an hour, to any addresses; its account mail is apart', async () => {
    const client = newClient();
    for (let join = 1; join <= 20; join++) {
      const email = uniqueEmail('many');
      expect((await server.api('POST', '/api/waitlist', { body: joins(email)[0], headers: client })).status).toBe(201);
      expect(await mailsSettled(smtp, server.dataDir, email)).toHaveLength(1);
    }
    const late = uniqueEmail('late');
    expect((await server.api('POST', '/api/waitlist', { body: joins(late)[0], headers: client })).status).toBe(201);
    expect(await mailsSettled(smtp, server.dataDir, late)).toEqual([]);
    const reset = uniqueEmail('reset');
    expect(
      (await server.api('POST', '/api/auth/password-reset', { body: { email: reset }, headers: client })).status,
    ).toBe(202);
    expect(await mailsSettled(smtp, server.dataDir, reset)).toHaveLength(1);
  });
});
