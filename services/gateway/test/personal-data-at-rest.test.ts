import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { adminWaitlistEntriesPage } from '@qrshirt/contracts';
import { as, signUp, uniqueEmail, WAIT_MS } from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminTestServer, startAdminServer } from './support/admin';

/*
 * Names and emails reach the event log's file sealed under their person's key, while everyone
 * entitled to them (the person, an operator) still reads them in clear through the product.
 */
let server: AdminTestServer;

beforeAll(async () => {
  server = await startAdminServer();
});
afterAll(() => server?.stop());

/** The bytes of the event store and the read models as they are on disk: each file and its WAL. */
async function eventLogBytes(): Promise<string> {
  const files = ['events.sqlite', 'read-models.sqlite'].flatMap((name) => [name, `${name}-wal`]);
  const parts = await Promise.all(
    files.map((name) => readFile(path.join(server.dataDir, name)).catch(() => Buffer.alloc(0))),
  );
  return Buffer.concat(parts).toString('latin1');
}

describe('personal data at rest', () => {
  it('keeps no name or email in clear in the event store or read-model files, and shows them to those entitled', async () => {
    const email = uniqueEmail('zebedee');
    const session = await signUp(server.api, { email, displayName: 'Zebedee Quartermain' });
    const renamed = await server.api('PATCH', `/api/user/${session.user.uid}`, {
      ...as(session),
      body: { displayName: 'Zeb Quartermain-Hollis' },
    });
    expect(renamed).toMatchObject({ status: 200, body: { displayName: 'Zeb Quartermain-Hollis', email } });

    const [shirt] = (await server.api('GET', '/api/shirts')).body;
    const [charity] = (await server.api('GET', '/api/charities')).body;
    const waitlistEmail = uniqueEmail('philippa');
    const joined = await server.api('POST', '/api/waitlist', {
      body: {
        shirtId: shirt.id,
        selectedSize: shirt.sizes[0],
        selectedCharity: charity.id,
        name: 'Philippa Wrenfield',
        email: waitlistEmail,
      },
    });
    expect(joined.status).toBe(201);
    // The read models hold all of it: the admin's list shows it, and their file is looked through below.
    await server.embedded.projectionsCaughtUp(WAIT_MS);

    expect(await server.api('GET', `/api/user/${session.user.uid}`, as(session))).toMatchObject({
      status: 200,
      body: { displayName: 'Zeb Quartermain-Hollis', email },
    });
    const listed = adminWaitlistEntriesPage.parse(
      (await server.api('GET', '/api/admin/waitlist/entries?limit=500', server.admin)).body,
    );
    expect(listed.entries.find((entry) => entry.id === joined.body.data.id)).toMatchObject({
      name: 'Philippa Wrenfield',
      email: waitlistEmail,
    });

    const log = await eventLogBytes();
    expect(log).toContain(session.user.uid);
    for (const clear of [
      email,
      'Zebedee Quartermain',
      'Zeb Quartermain-Hollis',
      waitlistEmail,
      'Philippa Wrenfield',
      'Olga Ops',
      'ops@example.org',
    ])
      expect(log, clear).not.toContain(clear);
  });
});
