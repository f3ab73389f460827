import { apiRoutes } from '@qrshirt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe('GET /api/openapi.json', () => {
  it('describes every REST path of spec section 7 in OpenAPI 3.1', async () => {
    const { status, body } = await server.api('GET', '/api/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    const specPaths = [
      'post /api/user', 'get /api/user/{id}', 'get /api/user/{id}/stats', 'get /api/charities', 'get /api/charity/{id}',
      'post /api/charity', 'get /api/shirts', 'get /api/shirt/{id}', 'post /api/waitlist', 'get /api/waitlist',
      'post /api/fundraisers', 'get /api/fundraisers/{id}', 'post /api/fundraisers/{id}/scan',
      'post /api/fundraisers/{id}/donate', 'get /api/fundraisers/{id}/stats', 'post /api/analytics',
    ];
    const documented = Object.entries(body.paths as Record<string, object>).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method} ${path}`),
    );
    expect(documented.sort()).toEqual(specPaths.sort());
    expect(JSON.stringify(body)).not.toContain('#/$defs/');
    for (const ref of JSON.stringify(body).match(/#\/components\/schemas\/\w+/g) ?? []) {
      expect(body.components.schemas[ref.split('/').at(-1)!], ref).toBeDefined();
    }
  });

  it('has a handler behind every documented route', async () => {
    for (const route of apiRoutes) {
      const path = route.path.replace(/\{\w+\}/g, 'some-id');
      const answer = await server.api(route.method.toUpperCase(), path, route.method === 'post' ? { body: {} } : {});
      expect(answer.body.error ?? '', `${route.method} ${route.path}`).not.toMatch(/^No such endpoint/);
      expect(answer.status, `${route.method} ${route.path}`).toBeLessThan(500);
    }
  });
});
