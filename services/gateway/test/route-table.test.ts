import { answerProblem, apiRouteList, apiRoutes, findRoute } from '@qrshirt/contracts';
import type { AddressInfo } from 'node:net';
import express, { type Express, type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handlers } from '../src/http/route-table';
import { errorHandler } from '../src/http/error-handler';
import { handlersOf, routeTable } from '../src/http/route-table';
import { startTestServer, type TestServer } from './support/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
}

/** Every method and path the Express app answers, as `get /api/...`, routers included. */
function served(app: Express): string[] {
  const found: string[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods)) found.push(`${method} ${layer.route.path}`);
      } else if (layer.handle.stack) walk(layer.handle.stack);
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return found;
}

describe('the route table', () => {
  it('is what the gateway serves under /api: nothing more, nothing less', () => {
    const api = served(server.embedded.app).filter((route) => route.split(' ')[1]!.startsWith('/api'));
    const declared = apiRouteList.map((route) => `${route.method} ${route.path.replace(/\{(\w+)\}/g, ':$1')}`);
    // `_all`: the 405 answer of each declared path for the methods it does not declare.
    expect(new Set(api.filter((route) => !route.startsWith('_all ')))).toEqual(new Set(declared));
  });

  it('answers a method a known path does not declare with 405 and the ones it does in Allow', async () => {
    const put = await fetch(`${server.url}/api/shirts`, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD');
    expect(await put.json()).toEqual({ error: 'PUT is not allowed here; allowed: GET, HEAD' });
    const del = await fetch(`${server.url}/api/fundraisers/some-id`, { method: 'DELETE' });
    expect({ status: del.status, allow: del.headers.get('allow') }).toEqual({ status: 405, allow: 'GET, PATCH, HEAD' });
    const options = await fetch(`${server.url}/api/user/some-id`, { method: 'OPTIONS' });
    expect({ status: options.status, allow: options.headers.get('allow') }).toEqual({
      status: 204,
      allow: 'GET, PATCH, DELETE, HEAD',
    });
    // An unknown path is still 404.
    expect((await fetch(`${server.url}/api/nothing-here`)).status).toBe(404);
  });

  it('refuses to serve without a handler for every declared route, or with one for an undeclared route', () => {
    const options = {
      authenticate: () => {},
      requireAdmin: () => {},
      sameOrigin: () => {},
      maxBodyBytes: 1024,
      redeemProofOfWork: async () => {},
    };
    const { donate: _donate, ...missingOne } = Object.fromEntries(
      Object.keys(apiRoutes).map((id) => [id, () => {}]),
    ) as unknown as Handlers;
    expect(() => routeTable(missingOne as Handlers, options)).toThrow('No handler for donate');
    const extra = { ...missingOne, donate: () => {}, refund: () => {} } as unknown as Handlers;
    expect(() => routeTable(extra, options)).toThrow('A handler for refund, which the route table does not declare');
  });

  it('refuses two handlers for one operation, from two modules or a module and the gateway', () => {
    const donate = () => ({ status: 200 as const, body: undefined as never });
    const module = (name: string) => ({ name, handlers: { donate }, projectors: [] });
    expect(() => handlersOf([module('donations'), module('copy')], {})).toThrow(
      "Two handlers for donate: the copy module's and another",
    );
    expect(() => handlersOf([module('donations')], { donate: () => {} })).toThrow(
      "Two handlers for donate: the donations module's and another",
    );
    expect(Object.keys(handlersOf([module('donations')], { refund: () => {} } as never))).toEqual(['refund', 'donate']);
  });

  it('hands a rawBody route the bytes as sent, whatever their type, and parses no body', async () => {
    const seen: { rawBody: Buffer | undefined; body: unknown }[] = [];
    const handlers = {
      ...Object.fromEntries(Object.keys(apiRoutes).map((id) => [id, () => {}])),
      receiveDonationWebhook: ({ rawBody, body }: { rawBody: Buffer; body: unknown }) => {
        seen.push({ rawBody, body });
        return { status: 200, body: { outcome: 'unchanged' } };
      },
    } as unknown as Handlers;
    const app = express();
    const pass: RequestHandler = (_req, _res, next) => next();
    app.use(
      routeTable(handlers, {
        authenticate: pass,
        requireAdmin: pass,
        sameOrigin: pass,
        maxBodyBytes: 64,
        redeemProofOfWork: async () => {},
      }),
    );
    app.use(errorHandler);
    const listening = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listening.once('listening', resolve));
    try {
      const { port } = listening.address() as AddressInfo;
      const post = (body: string | undefined, type?: string) =>
        fetch(`http://127.0.0.1:${port}/api/webhooks/donations`, {
          method: 'POST',
          ...(type && { headers: { 'content-type': type } }),
          ...(body !== undefined && { body }),
        });
      // Spacing JSON parsing would lose, under a type express.json would not read.
      const bytes = '{ "type" : "x" }\n';
      expect((await post(bytes, 'text/plain')).status).toBe(200);
      expect((await post(undefined)).status).toBe(200);
      expect(seen.map(({ rawBody, body }) => ({ raw: rawBody?.toString('utf8'), body }))).toEqual([
        { raw: bytes, body: undefined },
        { raw: '', body: undefined },
      ]);
      const tooLarge = await post('x'.repeat(65), 'application/json');
      expect({ status: tooLarge.status, body: await tooLarge.json() }).toEqual({
        status: 413,
        body: { error: 'The request body is too large: at most 64 bytes here' },
      });
    } finally {
      await new Promise((resolve) => listening.close(resolve));
    }
  });

  it('refuses a request without the JSON body its route declares, even one whose fields are all optional', async () => {
    const owner = await server.api('POST', '/api/auth/signup', {
      body: { email: `route-table-${Date.now()}@example.com`, password: 'secret!', displayName: 'R' },
    });
    const token = owner.body.accessToken as string;
    const [shirt] = (await server.api('GET', '/api/shirts')).body;
    const [charity] = (await server.api('GET', '/api/charities')).body;
    const made = await server.api('POST', '/api/fundraisers', {
      token,
      body: { shirtId: shirt.id, charityId: charity.id },
    });
    const patch = (init: RequestInit) =>
      fetch(`${server.url}/api/fundraisers/${made.body.id}`, {
        method: 'PATCH',
        ...init,
        headers: { authorization: `Bearer ${token}`, ...init.headers },
      });
    for (const init of [{}, { body: '{"goal":5}', headers: { 'content-type': 'text/plain' } }]) {
      const answer = await patch(init);
      expect({ status: answer.status, body: await answer.json() }).toEqual({
        status: 400,
        body: { error: 'A JSON body is required (Content-Type: application/json)' },
      });
    }
    expect((await patch({ body: '{}', headers: { 'content-type': 'application/json' } })).status).toBe(200);
  });

  it('lets the tests catch an answer the table does not declare, or a body its schema refuses', () => {
    const route = findRoute('GET', '/api/fundraisers/f-1?x=1')!;
    expect(route.operationId).toBe('getFundraiser');
    const json = 'application/json; charset=utf-8';
    expect(answerProblem(route, { status: 418, contentType: json, body: {} })).toBe(
      'GET /api/fundraisers/{id} answered 418, which the route table does not declare',
    );
    expect(answerProblem(route, { status: 200, contentType: json, body: { id: 'f-1' } })).toMatch(
      /^GET \/api\/fundraisers\/\{id\} answered 200 with a body its schema refuses: charityId: /,
    );
    expect(
      answerProblem(route, { status: 404, contentType: json, body: { error: 'Fundraiser not found' } }),
    ).toBeNull();
  });
});
