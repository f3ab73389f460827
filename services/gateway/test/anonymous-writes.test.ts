import { MAX_ANALYTICS_BATCH_BYTES } from '@qrshirt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiAnswer, createFundraiser, PHONE, type RequestOptions, scanner } from '@qrshirt/test-support';
import { asUser, startTestServer, type TestServer } from './support/test-server';

/*
 * What anyone may send without an account, and so what any web page or program could make the
 * product store: scans, analytics and donation reports. Each is refused, before anything is
 * stored, when another site's page sent it (scans), past a per-client allowance (429), or over
 * a size (413).
 */
let server: TestServer;
let fundraiserId: string;
beforeAll(async () => {
  server = await startTestServer();
  ({ id: fundraiserId } = await createFundraiser(server.api, asUser('anonymous-writes-owner')));
});
afterAll(() => server.stop());

let clients = 0;
/** A client address of each test's own, so that one test's allowance is not another's. */
const newAddress = () => `198.18.${++clients}.1`;
const from = (address: string, options: RequestOptions = {}): RequestOptions => ({
  ...options,
  headers: { ...options.headers, 'x-forwarded-for': address },
});

/** How many events of these types the log holds. */
async function stored(...eventTypes: string[]): Promise<number> {
  return (await server.embedded.eventStore.readAll({ eventTypes })).length;
}

/** `count` requests, `parallel` at a time, in order. */
async function repeat(count: number, send: (i: number) => Promise<ApiAnswer>, parallel = 20): Promise<ApiAnswer[]> {
  const answers: ApiAnswer[] = [];
  for (let start = 0; start < count; start += parallel) {
    const size = Math.min(parallel, count - start);
    answers.push(...(await Promise.all(Array.from({ length: size }, (_, i) => send(start + i)))));
  }
  return answers;
}

function expectTooMany(answer: ApiAnswer, most: string, windowSeconds: number): void {
  expect(answer.status).toBe(429);
  expect(answer.body.error).toMatch(new RegExp(`^Too many requests from your address \\(at most ${most}\\)`));
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

describe('POST /api/fundraisers/{id}/scan from other sites', () => {
  /** A scan with these headers, from a client address of its own. */
  const scan = (headers: Record<string, string>) =>
    server.api('POST', `/api/fundraisers/${fundraiserId}/scan`, {
      headers: { 'user-agent': PHONE, 'x-forwarded-for': newAddress(), ...headers },
    });

  it("refuses what another site's page can send unasked (a form, an image, a no-cors fetch), storing nothing", async () => {
    const before = await stored('ScanRecorded');
    const crossSite: Record<string, string>[] = [
      // A form's or a no-cors fetch's text/plain, as browsers with Fetch Metadata send it.
      { 'content-type': 'text/plain;charset=UTF-8', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' },
      { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
      // A no-cors fetch or a beacon with no body at all.
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' },
      // A browser from before Fetch Metadata still says which page sent it.
      { 'content-type': 'text/plain', origin: 'https://elsewhere.example' },
      { origin: 'null' },
    ];
    for (const headers of crossSite) {
      const answer = await scan(headers);
      expect({ status: answer.status, body: answer.body }, JSON.stringify(headers)).toEqual({
        status: 403,
        body: {
          error:
            "A scan from another site's page is not taken: send it as JSON (Content-Type: application/json) or from this site",
        },
      });
    }
    expect(await stored('ScanRecorded')).toBe(before);
  });

  it("takes a JSON scan, and a beacon-style one from the site's own pages", async () => {
    const before = await stored('ScanRecorded');
    const host = new URL(server.url).host;
    const accepted: Record<string, string>[] = [
      // The spec's client; a cross-site page cannot send this without a CORS preflight.
      { 'content-type': 'application/json' },
      { 'content-type': 'application/json; charset=utf-8', 'sec-fetch-site': 'cross-site' },
      // navigator.sendBeacon(url) from the QR page, and a plain fetch with no body.
      { 'content-type': 'text/plain;charset=UTF-8', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'no-cors' },
      { 'sec-fetch-site': 'same-site' },
      { 'content-type': 'text/plain', origin: `http://${host}` },
      // No web page sent this (a program, curl): any header would be as easy for it to send.
      {},
    ];
    for (const headers of accepted) {
      const answer = await scan(headers);
      expect(answer.status, JSON.stringify(headers)).toBe(202);
    }
    expect(await stored('ScanRecorded')).toBe(before + accepted.length);
  });
});

describe('limits per client', () => {
  it('takes 600 scans a minute from one client, IPv6 by its /64, and stores none past that', async () => {
    const before = await stored('ScanRecorded');
    const subscriber = '2001:db8:600:1';
    const answers = await repeat(600, (i) =>
      server.api('POST', `/api/fundraisers/${fundraiserId}/scan`, {
        headers: scanner(i, { address: `${subscriber}:${(i % 7) + 1}::${i}` }),
      }),
    );
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([202]));
    const refused = await server.api('POST', `/api/fundraisers/${fundraiserId}/scan`, {
      headers: scanner(600, { address: `${subscriber}::ffff` }),
    });
    expectTooMany(refused, '600 a minute', 60);
    expect(await stored('ScanRecorded')).toBe(before + 600);

    // Another client is not held back.
    const other = await server.api('POST', `/api/fundraisers/${fundraiserId}/scan`, {
      headers: scanner(601, { address: '2001:db8:600:2::1' }),
    });
    expect(other.status).toBe(202);
    expect(await stored('ScanRecorded')).toBe(before + 601);
  });

  it('takes 120 analytics batches a minute from one client, and stores none past that', async () => {
    const address = newAddress();
    const before = await stored('PageViewed');
    const send = () =>
      server.api('POST', '/api/analytics', from(address, { body: { events: [{ type: 'page_view', path: '/shop' }] } }));
    const answers = await repeat(120, send);
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([202]));
    expectTooMany(await send(), '120 a minute', 60);
    expect(await stored('PageViewed')).toBe(before + 120);
  });

  it('takes 60 donation reports a minute from one client, and stores none past that', async () => {
    const address = newAddress();
    const before = await stored('DonationReported');
    const report = () =>
      server.api('POST', `/api/fundraisers/${fundraiserId}/donate`, from(address, { body: { amount: 5 } }));
    const answers = await repeat(60, report);
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([201]));
    expectTooMany(await report(), '60 a minute', 60);
    expect(await stored('DonationReported')).toBe(before + 60);
  });
});

describe('bytes one request may store', () => {
  /** Page views with the longest title allowed, in characters of 3 bytes each in UTF-8. */
  const heavyViews = (count: number) =>
    Array.from({ length: count }, (_, i) => ({ type: 'page_view', path: `/shirt/${i}`, title: '界'.repeat(512) }));
  const bodyBytes = (events: unknown[]) => Buffer.byteLength(JSON.stringify({ events }));

  it('refuses an analytics batch over 16 KB with 413, storing none of it, and takes one just under', async () => {
    let fits = 1;
    while (bodyBytes(heavyViews(fits + 1)) <= MAX_ANALYTICS_BATCH_BYTES) fits += 1;
    const before = await stored('PageViewed');

    const tooLarge = await server.api(
      'POST',
      '/api/analytics',
      from(newAddress(), { body: { events: heavyViews(fits + 1) } }),
    );
    expect({ status: tooLarge.status, body: tooLarge.body }).toEqual({
      status: 413,
      body: { error: `The request body is too large: at most ${MAX_ANALYTICS_BATCH_BYTES} bytes here` },
    });
    expect(await stored('PageViewed')).toBe(before);

    const largest = await server.api(
      'POST',
      '/api/analytics',
      from(newAddress(), { body: { events: heavyViews(fits) } }),
    );
    expect(largest).toMatchObject({ status: 202, body: { accepted: fits } });
    const events = await server.embedded.eventStore.readAll({ eventTypes: ['PageViewed'] });
    expect(events).toHaveLength(before + fits);
    // What the log took for the request: about the request's own size, never a multiple of it.
    expect(Buffer.byteLength(JSON.stringify(events.slice(before).map((event) => event.data)))).toBeLessThan(
      MAX_ANALYTICS_BATCH_BYTES + fits * 64,
    );
  });

  it('refuses a donation report over 1 KB with 413, storing nothing', async () => {
    const before = await stored('DonationReported');
    const answer = await server.api(
      'POST',
      `/api/fundraisers/${fundraiserId}/donate`,
      from(newAddress(), { body: { amount: 5, source: 'widget', note: 'x'.repeat(1_024) } }),
    );
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 413,
      body: { error: 'The request body is too large: at most 1024 bytes here' },
    });
    expect(await stored('DonationReported')).toBe(before);
  });
});
