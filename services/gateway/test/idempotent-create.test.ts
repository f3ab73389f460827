/*
 * POST /api/fundraisers under an Idempotency-Key, on the real process: a retry (after a 503, a cut
 * connection, or a gateway killed between the two tries) answers the fundraiser the first try
 * made, and the owner has one.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import {
  as,
  createApiClient,
  eventually,
  type GatewayProcess,
  scaled,
  signUp,
  startGatewayProcess,
} from '@qrshirt/test-support';

const gateways: GatewayProcess[] = [];
let dataDir: string | undefined;
afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.terminate()));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function start(folder: string) {
  const gateway = await startGatewayProcess({ DATA_DIR: folder });
  gateways.push(gateway);
  return createApiClient(gateway.url);
}

it(
  'creates one fundraiser per owner and Idempotency-Key, across a kill, and refuses the key with another body',
  async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-idempotent-'));
    let api = await start(dataDir);
    const owner = as(await signUp(api));
    const [{ body: shirts }, { body: charities }] = await Promise.all([
      api('GET', '/api/shirts'),
      api('GET', '/api/charities'),
    ]);
    const body = { shirtId: shirts[0].id, charityId: charities[0].id, name: 'Once Only' };
    const create = (key: string, sent = body, who = owner) =>
      api('POST', '/api/fundraisers', { ...who, headers: { ...who.headers, 'Idempotency-Key': key }, body: sent });

    const first = await create('submit-1');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await create('submit-1');
    expect(again).toMatchObject({ status: 200, body: first.body });
    const otherBody = await create('submit-1', { ...body, name: 'Something Else' });
    expect(otherBody).toMatchObject({
      status: 409,
      body: { error: 'This Idempotency-Key was used for another fundraiser: use a new key' },
    });
    // The key is the owner's: another owner's same key makes their own.
    const stranger = as(await signUp(api));
    const theirs = await create('submit-1', body, stranger);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(first.body.id);

    // Killed between the two tries: the retry finds the fundraiser in the log.
    await gateways.pop()!.kill();
    api = await start(dataDir);
    const afterKill = await create('submit-1');
    expect(afterKill).toMatchObject({ status: 200, body: first.body });
    const another = await create('submit-2');
    expect(another.status).toBe(201);
    const stats = await eventually(
      () => api('GET', `/api/user/${first.body.userId}/stats`, owner),
      (answer) => answer.body.shirtsOwned >= 2,
    );
    expect(stats.body.shirtsOwned).toBe(2);
  },
  scaled(180_000),
);
