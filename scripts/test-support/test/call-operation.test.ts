import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Fundraiser, JoinWaitlistAnswer, Shirt } from '@qrshirt/contracts';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  type ApiClient,
  as,
  callOperation,
  createApiClient,
  type GatewayProcess,
  newClient,
  signUp,
  startGatewayProcess,
  uniqueEmail,
} from '../src';

let gateway: GatewayProcess;
let dataDir: string;
let api: ApiClient;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-call-operation-'));
  gateway = await startGatewayProcess({ DATA_DIR: dataDir });
  api = createApiClient(gateway.url);
}, 90_000);
afterAll(async () => {
  await gateway?.terminate();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe("test-support's callOperation", () => {
  it('calls an operation by its id, its path filled in and its body sent, with the session given', async () => {
    const owner = await signUp(api);
    const shirts = await callOperation(api, 'listShirts');
    const charities = await callOperation(api, 'listCharities');
    const created = await callOperation(api, 'createFundraiser', {
      ...as(owner),
      body: { shirtId: shirts.body[0]!.id, charityId: charities.body[0]!.id, name: 'Ada runs' },
    });
    expect(created).toMatchObject({ status: 201, body: { userId: owner.user.uid, name: 'Ada runs' } });

    const read = await callOperation(api, 'getFundraiser', { params: { id: created.body.id } });
    expect(read).toMatchObject({ status: 200, body: { id: created.body.id, goal: null, amountRaised: 0 } });
    expectTypeOf(shirts.body).toEqualTypeOf<Shirt[]>();
    expectTypeOf(created.body).toEqualTypeOf<Fundraiser>();
  });

  it('encodes path parameters, and answers a refusal as the path-based client does', async () => {
    // One path segment, which the route's id pattern refuses: sent as is, it would match no route.
    const encoded = await callOperation(api, 'getFundraiser', { params: { id: 'no such/one' } });
    expect(encoded).toMatchObject({ status: 400, body: { error: expect.stringContaining('id') } });
    const missing = await callOperation(api, 'getFundraiser', { params: { id: 'no-such-one' } });
    expect(missing).toMatchObject({ status: 404, body: { error: expect.any(String) } });
  });

  it("solves a challenge route's proof of work unless the test sends one", async () => {
    const shirts = await callOperation(api, 'listShirts');
    const charities = await callOperation(api, 'listCharities');
    const shirt = shirts.body[0]!;
    const joined = await callOperation(api, 'joinWaitlist', {
      headers: newClient(),
      body: {
        name: 'Ada',
        email: uniqueEmail('waitlist'),
        selectedSize: shirt.sizes[0]!,
        selectedCharity: charities.body[0]!.id,
        shirtId: shirt.id,
      },
    });
    expect(joined).toMatchObject({ status: 201, body: { success: true, data: { name: 'Ada' } } });
    expectTypeOf(joined.body).toEqualTypeOf<JoinWaitlistAnswer>();

    const forged = await callOperation(api, 'joinWaitlist', {
      headers: { ...newClient(), 'x-altcha': 'forged' },
      body: { name: 'Ada', email: uniqueEmail(), selectedSize: 'M', selectedCharity: 'c', shirtId: shirt.id },
    });
    expect(forged.status).toBe(400);
  });

  it('refuses, in tsc, a call the route table does not allow', () => {
    // Never run: the types are the test.
    const refused = () => {
      // @ts-expect-error the path's parameter is required
      void callOperation(api, 'getFundraiser');
      // @ts-expect-error a body field the schema does not have
      void callOperation(api, 'createFundraiser', { body: { shirtId: 's', charityId: 'c', title: 'x' } });
      // @ts-expect-error an operation the table does not have
      void callOperation(api, 'getFundraisers');
    };
    expectTypeOf(refused).returns.toBeVoid();
  });
});
