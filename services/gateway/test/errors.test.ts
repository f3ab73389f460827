import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFundraiser } from '@qrshirt/test-support';
import { asUser, startTestServer, type TestServer, userToken } from './support/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { MAX_BODY_BYTES: '2048' } });
});
afterAll(() => server.stop());

describe('bad input never yields a 500', () => {
  it('answers malformed JSON with 400 and the error shape', async () => {
    const answer = await server.api('POST', '/api/waitlist', { rawBody: '{"name": "Ada",' });
    expect(answer).toMatchObject({ status: 400, body: { error: 'The request body is not valid JSON' } });
  });

  it('answers an oversized body with 413', async () => {
    const answer = await server.api('POST', '/api/waitlist', { body: { name: 'x'.repeat(4096) } });
    expect(answer).toMatchObject({
      status: 413,
      body: { error: 'The request body is too large: at most 2048 bytes here' },
    });
  });

  it('answers wrong types with 400', async () => {
    const answer = await server.api('POST', '/api/waitlist', {
      body: { selectedSize: 1, selectedCharity: [], name: {}, email: true, shirtId: null },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('selectedSize is required');
    const notAnObject = await server.api('POST', '/api/analytics', { rawBody: '"hello"' });
    expect(notAnObject.status).toBe(400);
    expect(notAnObject.body).toEqual({ error: expect.any(String) });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const answer = await server.api('GET', '/api/nothing-here');
    expect(answer).toMatchObject({ status: 404, body: { error: 'No such endpoint: GET /api/nothing-here' } });
  });

  it('refuses a bad token, and an x-user-id or x-anonymous that does not match it', async () => {
    const owned = await createFundraiser(server.api, asUser('hdr-owner'));
    const path = `/api/fundraisers/${owned.id}/stats`;
    expect((await server.api('GET', path, { token: 'garbage' })).status).toBe(401);
    expect(
      (await server.api('GET', path, { token: userToken('hdr-owner'), headers: { 'x-user-id': 'someone-else' } }))
        .status,
    ).toBe(401);
    expect(
      (await server.api('GET', path, { token: userToken('hdr-owner'), headers: { 'x-anonymous': 'true' } })).status,
    ).toBe(401);
    const ok = await server.api('GET', path, { token: userToken('hdr-owner'), headers: { 'x-user-id': 'hdr-owner' } });
    expect(ok.status).toBe(200);
  });

  it('gives every answer a request id, echoing a sane one from the client', async () => {
    const echoed = await server.api('GET', '/api/shirts', { headers: { 'x-request-id': 'req-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('req-123');
    const generated = await server.api('GET', '/api/shirts', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
