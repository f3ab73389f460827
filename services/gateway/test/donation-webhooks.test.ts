import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { fundraiserStats } from '@qrshirt/contracts';
import { reportIdFor } from '@qrshirt/core';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFundraiser, WAIT_MS } from '@qrshirt/test-support';
import { asUser, startTestServer, type TestServer, userToken } from './support/test-server';
import {
  confirmDonation,
  type DonationEvent,
  handSignedHeaders,
  refunded,
  sendWebhook,
  signedHeaders,
  succeeded,
} from './support/webhooks';

/*
 * The donation processor's webhook against the real embedded process (SQLite event store, the
 * projectors): what it counts, what it refuses, and that a refusal records nothing.
 */

let server: TestServer;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  const log = pino(
    { level: 'warn' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
        done();
      },
    }),
  );
  server = await startTestServer({ log });
});
afterAll(() => server.stop());

async function newFundraiser(owner = `owner-${randomUUID()}`) {
  const { id } = await createFundraiser(server.api, asUser(owner));
  return { id, owner };
}

async function statsOf({ id, owner }: { id: string; owner: string }) {
  await server.embedded.projectionsCaughtUp(WAIT_MS);
  const answer = await server.api('GET', `/api/fundraisers/${id}/stats`, { token: userToken(owner) });
  expect(answer.status).toBe(200);
  return fundraiserStats.parse(answer.body);
}

/** Sends `body` as is with these headers. */
const post = (body: string, headers: Record<string, string>) =>
  server.api('POST', '/api/webhooks/donations', { rawBody: body, headers });

describe('POST /api/webhooks/donations: what counts', () => {
  it('counts a signed donation.succeeded as raised, once per processor donation id whatever the webhook id', async () => {
    const fundraiser = await newFundraiser();
    const event = succeeded({ fundraiserId: fundraiser.id, amount: 12.5 });

    expect(await sendWebhook(server.api, event)).toMatchObject({ status: 200, body: { outcome: 'confirmed' } });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 1, amountRaised: 12.5, amountReported: 0 });

    // The processor sends the same donation again, as a new message.
    expect(await sendWebhook(server.api, event)).toMatchObject({ status: 200, body: { outcome: 'unchanged' } });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 1, amountRaised: 12.5 });
  });

  it('changes nothing for a webhook-id seen before, whatever its body says', async () => {
    const fundraiser = await newFundraiser();
    const id = `msg_${randomUUID()}`;
    await sendWebhook(server.api, succeeded({ fundraiserId: fundraiser.id, amount: 5 }), { id });
    const head = await server.embedded.eventStore.headPosition();

    const again = await sendWebhook(server.api, succeeded({ fundraiserId: fundraiser.id, amount: 500 }), { id });
    expect(again).toMatchObject({ status: 200, body: { outcome: 'unchanged' } });
    expect(await server.embedded.eventStore.headPosition()).toBe(head);
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 1, amountRaised: 5 });
  });

  it('accepts a signature computed by hand (HMAC-SHA256 over id.timestamp.body with the decoded secret)', async () => {
    const fundraiser = await newFundraiser();
    const body = JSON.stringify(succeeded({ fundraiserId: fundraiser.id, amount: 7.25 }));
    expect(await post(body, handSignedHeaders(body))).toMatchObject({ status: 200, body: { outcome: 'confirmed' } });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 1, amountRaised: 7.25 });
  });

  it('accepts a signature among several (a processor rotating its secret signs with both)', async () => {
    const fundraiser = await newFundraiser();
    const body = JSON.stringify(succeeded({ fundraiserId: fundraiser.id, amount: 3 }));
    const at = new Date();
    const id = `msg_${randomUUID()}`;
    const old = signedHeaders(body, { id, at, secret: `whsec_${randomBytes(32).toString('base64')}` });
    const current = signedHeaders(body, { id, at });
    const headers = { ...current, 'webhook-signature': `${old['webhook-signature']} ${current['webhook-signature']}` };
    expect(await post(body, headers)).toMatchObject({ status: 200, body: { outcome: 'confirmed' } });
  });

  it('subtracts a refund once, from the day that counted the donation', async () => {
    const fundraiser = await newFundraiser();
    const kept = await confirmDonation(server.api, { fundraiserId: fundraiser.id, amount: 20 });
    const donationId = await confirmDonation(server.api, { fundraiserId: fundraiser.id, amount: 8 });
    expect(kept).not.toBe(donationId);
    const refund = refunded({ donationId, fundraiserId: fundraiser.id, amount: 8 });

    expect(await sendWebhook(server.api, refund)).toMatchObject({ status: 200, body: { outcome: 'refunded' } });
    expect(await sendWebhook(server.api, refund)).toMatchObject({ status: 200, body: { outcome: 'unchanged' } });
    const stats = await statsOf(fundraiser);
    expect(stats).toMatchObject({ donations: 1, amountRaised: 20 });
    expect(stats.daily).toEqual([
      { date: expect.any(String), scans: 0, scanRequests: 0, donations: 1, amountRaised: 20 },
    ]);
    // A repeat of the donation after its refund does not bring it back.
    expect(
      await sendWebhook(server.api, succeeded({ donationId, fundraiserId: fundraiser.id, amount: 8 })),
    ).toMatchObject({ status: 200, body: { outcome: 'unchanged' } });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 1, amountRaised: 20 });
  });

  it('keeps a refund of a donation not confirmed yet: once confirmed, it counts nothing', async () => {
    const fundraiser = await newFundraiser();
    const donationId = `pi_${randomUUID()}`;
    const early = await sendWebhook(server.api, refunded({ donationId, fundraiserId: fundraiser.id, amount: 4 }));
    expect(early).toMatchObject({ status: 200, body: { outcome: 'recorded' } });
    const confirmed = await sendWebhook(server.api, succeeded({ donationId, fundraiserId: fundraiser.id, amount: 4 }));
    expect(confirmed).toMatchObject({ status: 200, body: { outcome: 'confirmed' } });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 0, amountRaised: 0 });
  });

  it('answers 404 for an unknown fundraiser, so the processor retries, and logs it', async () => {
    const donationId = `pi_${randomUUID()}`;
    const head = await server.embedded.eventStore.headPosition();
    const answer = await sendWebhook(
      server.api,
      succeeded({ donationId, fundraiserId: 'no-such-fundraiser', amount: 4 }),
    );
    expect(answer).toMatchObject({ status: 404, body: { error: 'Fundraiser not found' } });
    expect(await server.embedded.eventStore.headPosition()).toBe(head);
    expect(logLines).toContainEqual(
      expect.objectContaining({
        donationId,
        fundraiserId: 'no-such-fundraiser',
        msg: expect.stringMatching(/Fundraiser not found/),
      }),
    );
  });
});

describe('POST /api/webhooks/donations: reported and confirmed', () => {
  it('keeps a report awaiting confirmation until the processor confirms it, then counts it raised', async () => {
    const fundraiser = await newFundraiser();
    const reported = await server.api('POST', `/api/fundraisers/${fundraiser.id}/donate`, { body: { amount: 25 } });
    expect(reported.status).toBe(201);
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 0, amountRaised: 0, amountReported: 25, daily: [] });

    await confirmDonation(server.api, { fundraiserId: fundraiser.id, amount: 25, reportId: reported.body.id });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 1, amountRaised: 25, amountReported: 0 });
  });

  it('counts a report the processor confirmed before the page reported it as awaiting nothing', async () => {
    const fundraiser = await newFundraiser();
    // The widget's own name for the donation: the page reports with it as Idempotency-Key, and the
    // processor was handed the report id that follows from it (as the demo processor is).
    const key = `checkout-${randomUUID()}`;
    const reportId = reportIdFor(fundraiser.id, key);
    await confirmDonation(server.api, { fundraiserId: fundraiser.id, amount: 9, reportId });

    const late = await server.api('POST', `/api/fundraisers/${fundraiser.id}/donate`, {
      body: { amount: 9 },
      headers: { 'idempotency-key': key },
    });
    expect(late).toMatchObject({ status: 201, body: { id: reportId } });
    expect(await statsOf(fundraiser)).toMatchObject({ donations: 1, amountRaised: 9, amountReported: 0 });
  });
});

describe('POST /api/webhooks/donations: refused, and nothing recorded', () => {
  let fundraiserId: string;
  let event: DonationEvent;
  let body: string;

  beforeAll(async () => {
    fundraiserId = (await newFundraiser()).id;
    event = succeeded({ fundraiserId, amount: 50 });
    body = JSON.stringify(event);
  });

  async function refused(headers: Record<string, string>, sent = body) {
    const head = await server.embedded.eventStore.headPosition();
    const answer = await post(sent, headers);
    expect(answer.status, JSON.stringify(answer.body)).toBe(401);
    expect(answer.headers.get('content-type')).toMatch(/application\/json/);
    expect(answer.body).toEqual({ error: expect.stringMatching(/^The webhook signature was refused/) });
    expect(await server.embedded.eventStore.headPosition()).toBe(head);
  }

  it('401 for a signature made with another secret', async () => {
    await refused(signedHeaders(body, { secret: `whsec_${randomBytes(32).toString('base64')}` }));
    await refused(handSignedHeaders(body, { secret: `whsec_${randomBytes(24).toString('base64')}` }));
  });

  it('401 for a body changed after signing', async () => {
    const headers = signedHeaders(body);
    await refused(headers, body.replace('"amount":50', '"amount":5000'));
    await refused(headers, `${body} `);
  });

  it('401 for a timestamp more than 5 minutes old or ahead, and accepts one within them', async () => {
    await refused(signedHeaders(body, { at: new Date(Date.now() - 6 * 60_000) }));
    await refused(signedHeaders(body, { at: new Date(Date.now() + 6 * 60_000) }));
    // The signature covers the timestamp: a fresh one on an old signature does not pass either.
    const stale = signedHeaders(body, { at: new Date(Date.now() - 6 * 60_000) });
    await refused({ ...stale, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) });
    await refused({ ...stale, 'webhook-timestamp': 'yesterday' });
    const late = await post(body, signedHeaders(body, { at: new Date(Date.now() - 4 * 60_000) }));
    expect(late).toMatchObject({ status: 200, body: { outcome: 'confirmed' } });
  });

  it('401 for missing headers, or none at all', async () => {
    const headers = signedHeaders(JSON.stringify(succeeded({ fundraiserId, amount: 1 })));
    for (const missing of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      const { [missing]: _left, ...rest } = headers;
      await refused(rest);
    }
    await refused({});
    await refused({
      'webhook-id': 'x',
      'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
      'webhook-signature': 'v1,',
    });
  });
});

describe('POST /api/webhooks/donations: bad input, once signed', () => {
  let fundraiserId: string;
  beforeAll(async () => {
    fundraiserId = (await newFundraiser()).id;
  });

  async function badInput(event: unknown, message: RegExp) {
    const head = await server.embedded.eventStore.headPosition();
    const body = typeof event === 'string' ? event : JSON.stringify(event);
    const answer = await post(body, signedHeaders(body));
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body).toEqual({ error: expect.stringMatching(message) });
    expect(await server.embedded.eventStore.headPosition()).toBe(head);
  }

  it('400 for a type it does not know', async () => {
    await badInput({ ...succeeded({ fundraiserId, amount: 1 }), type: 'donation.pending' }, /type must be/);
    await badInput({ data: succeeded({ fundraiserId, amount: 1 }).data }, /type must be/);
  });

  it('400 for amounts that are not positive numbers', async () => {
    for (const amount of [0, -5, '12.50', null, true]) {
      await badInput(succeeded({ fundraiserId, amount: amount as number }), /amount must be a positive number/);
    }
    await badInput(succeeded({ fundraiserId, amount: 1e9 }), /amount must be at most/);
    await badInput(succeeded({ fundraiserId, amount: 0.001 }), /amount must be at least 0.01/);
    await badInput(refunded({ donationId: 'pi_1', fundraiserId, amount: -1 }), /amount must be a positive number/);
  });

  it('400 for a currency other than USD', async () => {
    const event = succeeded({ fundraiserId, amount: 1 });
    await badInput({ ...event, data: { ...event.data, currency: 'EUR' } }, /currency must be USD/);
    await badInput({ ...event, data: { ...event.data, currency: undefined } }, /currency must be USD/);
  });

  it('413 for a body over MAX_BODY_BYTES, before anything else', async () => {
    const body = JSON.stringify({ ...succeeded({ fundraiserId, amount: 1 }), padding: 'x'.repeat(70_000) });
    const answer = await post(body, signedHeaders(body));
    expect(answer).toMatchObject({
      status: 413,
      body: { error: 'The request body is too large: at most 65536 bytes here' },
    });
  });

  it('400 for a body that is not JSON, or lacks the donation', async () => {
    await badInput('not json', /not valid JSON/);
    await badInput({ type: 'donation.succeeded' }, /data/);
    await badInput(succeeded({ fundraiserId, amount: 1, donationId: 'has spaces' }), /donationId/);
  });
});
