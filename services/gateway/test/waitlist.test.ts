import { waitlistStats } from '@qrshirt/contracts';
import { WAIT_MS } from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server';

let server: TestServer;
let shirtId: string;
let sizes: string[];
let charityId: string;

beforeAll(async () => {
  server = await startTestServer();
  const [{ body: shirts }, { body: charities }] = await Promise.all([
    server.api('GET', '/api/shirts'),
    server.api('GET', '/api/charities'),
  ]);
  shirtId = shirts[0].id;
  sizes = shirts[0].sizes;
  charityId = charities[0].id;
});
afterAll(() => server.stop());

const join = (body: Record<string, unknown>) => server.api('POST', '/api/waitlist', { body });

describe('POST /api/waitlist', () => {
  it('reports missing fields in the spec order: size, charity, name, email', async () => {
    const full = { selectedSize: sizes[0], selectedCharity: charityId, name: 'Ada', email: 'ada@example.com', shirtId };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...full, selectedSize: '', selectedCharity: '', name: '', email: '' }, 'selectedSize is required'],
      [{ ...full, selectedCharity: '', name: '', email: '' }, 'selectedCharity is required'],
      [{ ...full, name: '   ', email: '' }, 'name is required'],
      [{ ...full, email: '  ' }, 'email is required'],
    ];
    for (const [body, error] of cases) {
      const answer = await join(body);
      expect(answer, error).toMatchObject({ status: 400, body: { error } });
    }
  });

  it('refuses a size the shirt does not come in, an unknown shirt or charity, and a bad email', async () => {
    const base = { selectedSize: sizes[0], selectedCharity: charityId, name: 'Ada', email: 'ada@example.com', shirtId };
    const wrongSize = await join({ ...base, selectedSize: 'XXXXXL' });
    expect(wrongSize.status).toBe(400);
    expect(wrongSize.body.error).toContain("selectedSize must be one of the shirt's sizes");
    expect(await join({ ...base, shirtId: 'no-such-shirt' })).toMatchObject({
      status: 404,
      body: { error: 'Shirt not found' },
    });
    expect(await join({ ...base, selectedCharity: 'nope' })).toMatchObject({
      status: 404,
      body: { error: 'Charity not found' },
    });
    expect(await join({ ...base, email: 'not-an-email' })).toMatchObject({ status: 400 });
    expect(await join({ ...base, name: 42 })).toMatchObject({ status: 400 });
  });

  it('joins with trimmed name and email and echoes them in data', async () => {
    const answer = await join({
      selectedSize: sizes[0],
      selectedCharity: charityId,
      name: '  Grace Hopper ',
      email: ' grace@example.com ',
      shirtId,
    });
    expect(answer.status).toBe(201);
    expect(answer.body.data).toMatchObject({
      id: expect.any(String),
      name: 'Grace Hopper',
      email: 'grace@example.com',
      selectedSize: sizes[0],
    });
  });
});

describe('GET /api/waitlist', () => {
  it('counts per shirt, size and charity, and never shows emails', async () => {
    // The earlier tests' joins projected first: the counts then move by this test's joins alone.
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const before = waitlistStats.parse((await server.api('GET', '/api/waitlist')).body);
    for (const email of ['one@example.com', 'two@example.com']) {
      const answer = await join({
        selectedSize: sizes[1],
        selectedCharity: charityId,
        name: 'Someone',
        email,
        shirtId,
      });
      expect(answer.status).toBe(201);
    }
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const { body, status } = await server.api('GET', '/api/waitlist');
    expect(status).toBe(200);
    const after = waitlistStats.parse(body);
    expect(after.total).toBe(before.total + 2);
    expect(after.byShirt[shirtId]).toBe((before.byShirt[shirtId] ?? 0) + 2);
    expect(after.byCharity[charityId]).toBe((before.byCharity[charityId] ?? 0) + 2);
    expect(after.byShirtAndSize[shirtId]?.[sizes[1]!]).toBe((before.byShirtAndSize[shirtId]?.[sizes[1]!] ?? 0) + 2);
    expect(JSON.stringify(body)).not.toContain('@example.com');
  });
});
