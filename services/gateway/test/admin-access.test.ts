import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, type RequestOptions, signUp, waitFor } from '@qrshirt/test-support';
import { ADMIN_EMAIL, type AdminTestServer, startAdminServer } from './support/admin';

let server: AdminTestServer;
let charityId: string;
let shirtId: string;
beforeAll(async () => {
  server = await startAdminServer();
  charityId = (await server.api('GET', '/api/charities')).body[0].id;
  shirtId = (await server.api('GET', '/api/shirts')).body[0].id;
});
afterAll(() => server.stop());

const image = { id: 'front', url: '/images/shirts/plot-twist-1.svg', alt: 'Front', isMain: true };
let renames = 0;

/** Every admin endpoint, with a request an admin gets a 2xx for. */
function adminRequests(): { method: string; path: string; body?: unknown; expected: number }[] {
  renames += 1;
  return [
    { method: 'GET', path: '/api/admin/replay', expected: 200 },
    { method: 'GET', path: '/api/admin/overview', expected: 200 },
    {
      method: 'POST',
      path: '/api/admin/charities',
      body: { name: 'Bees Please', mission: 'Keeps bees.', website_url: 'https://bees.example.org' },
      expected: 201,
    },
    {
      method: 'PUT',
      path: `/api/admin/charities/${charityId}`,
      body: { mission: `Mission no. ${renames}` },
      expected: 200,
    },
    {
      method: 'POST',
      path: '/api/admin/shirts',
      body: { name: 'Admin Tee', description: 'Plain.', price: 20, sizes: ['M'], images: [image] },
      expected: 201,
    },
    { method: 'PUT', path: `/api/admin/shirts/${shirtId}`, body: { description: `Edition ${renames}` }, expected: 200 },
    { method: 'GET', path: '/api/admin/waitlist', expected: 200 },
    { method: 'GET', path: '/api/admin/waitlist/entries', expected: 200 },
    { method: 'GET', path: '/api/admin/waitlist/entries.csv', expected: 200 },
    { method: 'GET', path: '/api/admin/projections', expected: 200 },
    { method: 'POST', path: '/api/admin/projections/users/rebuild', expected: 202 },
    { method: 'GET', path: '/api/admin/projections/users/rebuild', expected: 200 },
    { method: 'GET', path: '/api/admin/events', expected: 200 },
    { method: 'GET', path: '/api/admin/outbox', expected: 200 },
    { method: 'GET', path: '/api/admin/audit', expected: 200 },
  ];
}

async function statuses(options: RequestOptions): Promise<string[]> {
  const seen: string[] = [];
  for (const { method, path, body } of adminRequests()) {
    const answer = await server.api(method, path, { ...options, ...(body !== undefined && { body }) });
    seen.push(`${method} ${path} ${answer.status} ${answer.status >= 400 ? answer.body.error : ''}`.trim());
    // A rebuild started above must end before the next one may start.
    if (method === 'POST' && path.endsWith('/rebuild') && answer.status === 202) await rebuildDone('users');
  }
  return seen;
}

async function rebuildDone(name: string): Promise<void> {
  await waitFor(
    `the rebuild of ${name} to finish`,
    async () => (await server.api('GET', `/api/admin/projections/${name}/rebuild`, server.admin)).body,
    (body) => body.state !== 'running',
    { intervalMs: 10 },
  );
}

describe('/api/admin/*', () => {
  it('answers an admin on every endpoint', async () => {
    const expected = adminRequests().map(({ method, path, expected: status }) => `${method} ${path} ${status}`);
    expect(await statuses(server.admin)).toEqual(expected);
  });

  it('answers 401 without a token, 403 to an anonymous session and to a member, as JSON errors', async () => {
    const answers = (status: number, error: string) =>
      adminRequests().map(({ method, path }) => `${method} ${path} ${status} ${error}`);
    expect(await statuses({})).toEqual(answers(401, 'Authentication required for this request'));
    expect(await statuses(server.anonymous)).toEqual(answers(403, 'Only administrators can do this'));
    expect(await statuses(server.member)).toEqual(answers(403, 'Only administrators can do this'));
  });

  it('tells the web client whether to offer the admin area, without refusing anyone signed in', async () => {
    expect(await server.api('GET', '/api/me', server.admin)).toMatchObject({
      status: 200,
      body: { uid: server.adminUid, anonymous: false, admin: true },
    });
    expect(await server.api('GET', '/api/me', server.member)).toMatchObject({
      status: 200,
      body: { anonymous: false, admin: false },
    });
    expect(await server.api('GET', '/api/me', server.anonymous)).toMatchObject({
      status: 200,
      body: { anonymous: true, admin: false },
    });
    expect((await server.api('GET', '/api/me')).status).toBe(401);
  });

  it('tells an admin, and only an admin, that an admin path does not exist', async () => {
    expect((await server.api('GET', '/api/admin/nothing-here', server.member)).status).toBe(403);
    expect((await server.api('GET', '/api/admin/nothing-here', server.admin)).status).toBe(404);
  });

  it('does not make an admin of a member who copies the admin email into their profile', async () => {
    const copycat = await signUp(server.api, { displayName: 'Copy Cat' });
    const synced = await server.api('POST', '/api/user', {
      ...as(copycat),
      body: { uid: copycat.user.uid, email: ADMIN_EMAIL, displayName: 'Copy Cat', photoURL: null },
    });
    // The sync no longer changes an address at all: refused, and the profile is as it was.
    expect(synced.status).toBe(409);
    const profile = await server.api('GET', `/api/user/${copycat.user.uid}`, as(copycat));
    expect(profile.body.email).toBe(copycat.user.email);
    expect((await server.api('GET', '/api/admin/overview', as(copycat))).status).toBe(403);
  });
});
