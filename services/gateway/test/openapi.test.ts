import { apiRouteList, STORAGE_FULL_RETRY_AFTER_SECONDS } from '@qrshirt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe('GET /api/openapi.json', () => {
  it('describes every REST path of spec section 7, and the sign-in ones, in OpenAPI 3.1', async () => {
    const { status, body } = await server.api('GET', '/api/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    const specPaths = [
      'post /api/user',
      'get /api/user/{id}',
      'get /api/user/{id}/stats',
      'get /api/charities',
      'get /api/charity/{id}',
      'post /api/charity',
      'post /api/claims',
      'get /api/shirts',
      'get /api/shirt/{id}',
      'post /api/waitlist',
      'post /api/waitlist/confirm',
      'post /api/waitlist/remove',
      'get /api/waitlist',
      'post /api/fundraisers',
      'get /api/fundraisers/{id}',
      'patch /api/fundraisers/{id}',
      'post /api/fundraisers/{id}/scan',
      'post /api/fundraisers/{id}/donate',
      'get /api/fundraisers/{id}/stats',
      'post /api/analytics',
    ];
    const accountPaths = [
      'post /api/auth/signup',
      'post /api/auth/signin',
      'post /api/auth/anonymous',
      'post /api/auth/refresh',
      'post /api/auth/signout',
      'post /api/auth/signout-everywhere',
      'get /api/auth/google',
      'get /api/auth/google/callback',
      'post /api/auth/exchange',
      'post /api/auth/phone/start',
      'post /api/auth/phone/confirm',
      'post /api/auth/password-reset',
      'post /api/auth/password-reset/confirm',
      'patch /api/user/{id}',
      'delete /api/user/{id}',
      'get /api/user/{id}/export',
      'post /api/user/{id}/email',
      'post /api/auth/verify-email',
      'post /api/auth/verify-email/preview',
      'post /api/auth/verify-email/resend',
      'post /api/unsubscribe',
      'get /api/user/{id}/charities',
    ];
    const adminAndLivePaths = [
      'get /api/me',
      'get /api/admin/overview',
      'get /api/admin/funnel',
      'get /api/admin/charities',
      'post /api/admin/charities',
      'put /api/admin/charities/{id}',
      'post /api/admin/charities/{id}/approve',
      'post /api/admin/charities/{id}/reject',
      'post /api/admin/shirts',
      'post /api/admin/waitlist/entries/{entryId}/fulfil',
      'post /api/admin/waitlist/entries/{entryId}/claim-link',
      'post /api/admin/waitlist/fulfil',
      'put /api/admin/shirts/{id}',
      'get /api/admin/waitlist',
      'get /api/admin/waitlist/entries',
      'get /api/admin/waitlist/entries.csv',
      'get /api/admin/projections',
      'post /api/admin/projections/{name}/rebuild',
      'get /api/admin/projections/{name}/rebuild',
      'delete /api/admin/users/{id}',
      'get /api/admin/events',
      'get /api/admin/replay',
      'get /api/admin/reconcile',
      'get /api/admin/audit',
      'get /api/admin/fundraisers/{id}/stats',
      'get /api/fundraisers/{id}/live',
      'get /api/user/{id}/live',
      'get /api/admin/outbox',
      'post /api/admin/outbox/{id}/retry',
    ];
    const qrPaths = ['get /api/fundraisers/{id}/qr.svg', 'get /api/fundraisers/{id}/qr.png', 'get /api/openapi.json'];
    const donationPaths = [
      'post /api/webhooks/donations',
      'post /api/demo-processor/donations',
      'post /api/fundraisers/{id}/checkout',
      'post /api/webhooks/stripe',
      'get /api/admin/charities/{id}/payouts',
      'post /api/admin/charities/{id}/payouts',
      'get /api/charity/{id}/payouts',
      'post /api/charity/{id}/payouts',
    ];
    const proofOfWorkPaths = ['get /api/challenge'];
    const documented = Object.entries(body.paths as Record<string, object>).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method} ${path}`),
    );
    expect(documented.sort()).toEqual(
      [...specPaths, ...accountPaths, ...adminAndLivePaths, ...qrPaths, ...donationPaths, ...proofOfWorkPaths].sort(),
    );
    expect(JSON.stringify(body)).not.toContain('#/$defs/');
    for (const ref of JSON.stringify(body).match(/#\/components\/schemas\/\w+/g) ?? []) {
      expect(body.components.schemas[ref.split('/').at(-1)!], ref).toBeDefined();
    }
  });

  it('documents the 431 the HTTP server gives an address over 16 KB, before any route', async () => {
    const answer = await fetch(`${server.url}/api/admin/events?type=${'x'.repeat(17_000)}`);
    expect({ status: answer.status, body: await answer.text() }).toEqual({ status: 431, body: '' });
    const { body } = await server.api('GET', '/api/openapi.json');
    expect(Object.keys(body.paths['/api/admin/events'].get.responses)).toContain('431');
    // A route with nothing to make its address long does not claim it.
    expect(Object.keys(body.paths['/api/shirts'].get.responses)).not.toContain('431');
  });

  it("documents every write's 503 for a full disk with the Retry-After the gateway sends", async () => {
    const { body } = await server.api('GET', '/api/openapi.json');
    const writes = Object.values(body.paths as Record<string, Record<string, { responses: object }>>).flatMap(
      (operations) => Object.entries(operations).filter(([method]) => method !== 'get'),
    );
    expect(writes.length).toBeGreaterThan(10);
    for (const [, operation] of writes) {
      const refused = (operation.responses as Record<string, { description: string; headers?: object }>)['503'];
      expect(refused?.description).toMatch(/storage is full/);
      expect(refused?.headers).toMatchObject({
        'Retry-After': { description: expect.stringContaining(`${STORAGE_FULL_RETRY_AFTER_SECONDS} when the storage`) },
      });
    }
  });

  it('documents the refresh token as an HttpOnly cookie, in no body', async () => {
    const { body } = await server.api('GET', '/api/openapi.json');
    for (const path of ['/api/auth/refresh', '/api/auth/signout']) {
      const operation = body.paths[path].post;
      expect(operation.parameters, path).toEqual([
        { name: 'qrshirt_refresh', in: 'cookie', required: false, schema: { type: 'string' } },
      ]);
      expect(operation.requestBody, path).toBeUndefined();
      expect(Object.keys(operation.responses), path).toContain('403');
    }
    const signIn = body.paths['/api/auth/signin'].post.responses['200'];
    expect(signIn.headers['Set-Cookie'].description).toMatch(/^qrshirt_refresh=.*; HttpOnly; Secure; SameSite=Strict;/);
    expect(Object.keys(body.components.schemas.AuthSession.properties).sort()).toEqual([
      'accessToken',
      'expiresIn',
      'user',
    ]);
  });

  it('has a handler behind every documented route', async () => {
    for (const route of apiRouteList) {
      const path = route.path.replace(/\{\w+\}/g, 'some-id');
      const answer = await server.api(route.method.toUpperCase(), path, route.method === 'get' ? {} : { body: {} });
      expect(answer.body.error ?? '', `${route.method} ${route.path}`).not.toMatch(/^No such endpoint/);
      // A documented 5xx is an answer too (Google sign-in when it is not configured).
      if (!(answer.status in route.answers)) expect(answer.status, `${route.method} ${route.path}`).toBeLessThan(500);
    }
  });
});
