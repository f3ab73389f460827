import { adminCharityList, charity, shirt } from '@qrshirt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAIT_MS } from '@qrshirt/test-support';
import { type AdminTestServer, startAdminServer } from './support/admin';

let server: AdminTestServer;
beforeAll(async () => {
  server = await startAdminServer();
});
afterAll(() => server.stop());

const front = { id: 'front', url: '/images/shirts/plot-twist-1.svg', alt: 'Front', isMain: true };
const back = { id: 'back', url: 'https://cdn.example.org/back.png', alt: 'Back', isMain: false };

describe('charities through the admin API', () => {
  it('creates a charity the shop lists once the catalogue has caught up', async () => {
    const fields = {
      name: '  Owl Rescue ',
      mission: 'Returns owls to the wild.',
      website_url: 'https://owls.example.org',
      logo_url: '/images/charities/givedirectly.svg',
    };
    const created = await server.api('POST', '/api/admin/charities', { ...server.admin, body: fields });
    expect(created.status).toBe(201);
    expect(charity.parse(created.body)).toEqual({ ...fields, name: 'Owl Rescue', id: expect.any(String) });

    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const listed = (await server.api('GET', '/api/charities')).body;
    expect(listed.at(-1)).toEqual(created.body);
    // An admin's charity needs no review: the shop has it at once.
    expect((await server.api('GET', `/api/charity/${created.body.id}`)).body).toEqual({
      ...created.body,
      status: 'approved',
    });
  });

  it('changes only the fields given, and the shop shows the change', async () => {
    const { body: before } = await server.api('GET', '/api/charities');
    const target = before[1];
    const changed = await server.api('PUT', `/api/admin/charities/${target.id}`, {
      ...server.admin,
      body: { name: 'Renamed Charity', website_url: 'https://renamed.example.org' },
    });
    expect(changed).toMatchObject({
      status: 200,
      body: { ...target, name: 'Renamed Charity', website_url: 'https://renamed.example.org' },
    });

    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const { body: after } = await server.api('GET', '/api/charities');
    expect(after).toHaveLength(before.length);
    expect(after[1]).toEqual(changed.body);
  });

  it('answers 400 with a problem per field', async () => {
    const answer = await server.api('POST', '/api/admin/charities', {
      ...server.admin,
      body: { name: '   ', website_url: 'javascript:alert(1)', logo_url: 'data:image/png;base64,AAAA' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: 'Name is required',
      fields: {
        name: 'Name is required',
        mission: 'Mission is required',
        website_url: 'Website must be an https:// address, like https://example.org',
        logo_url: 'Logo must be an https:// address or a path on this site starting with /',
      },
    });
  });

  it("keeps the legal name and tax id of donors' receipts for admins, out of the shop's answers", async () => {
    const created = await server.api('POST', '/api/admin/charities', {
      ...server.admin,
      body: {
        name: 'Hive Help',
        mission: 'Keeps city bees fed.',
        website_url: 'https://hives.example.org',
        legalName: ' Hive Help Foundation, Inc. ',
        taxId: '12-3456789',
      },
    });
    expect(created).toMatchObject({
      status: 201,
      body: { name: 'Hive Help', legalName: 'Hive Help Foundation, Inc.', taxId: '12-3456789' },
    });
    const id = created.body.id as string;
    const changed = await server.api('PUT', `/api/admin/charities/${id}`, {
      ...server.admin,
      body: { taxId: '98-7654321', legalName: '' },
    });
    // A blank field is one not given: the legal name stays.
    expect(changed).toMatchObject({
      status: 200,
      body: { legalName: 'Hive Help Foundation, Inc.', taxId: '98-7654321' },
    });

    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const { body: listed } = await server.api('GET', '/api/admin/charities?status=approved', server.admin);
    expect(adminCharityList.parse(listed).charities.find((found) => found.id === id)).toMatchObject({
      legalName: 'Hive Help Foundation, Inc.',
      taxId: '98-7654321',
    });
    const shop = [
      (await server.api('GET', `/api/charity/${id}`)).body,
      (await server.api('GET', '/api/charities')).body.find((found: { id: string }) => found.id === id),
    ];
    for (const answer of shop) {
      expect(answer).toMatchObject({ id, name: 'Hive Help' });
      expect(answer).not.toHaveProperty('legalName');
      expect(answer).not.toHaveProperty('taxId');
    }
  });

  it('refuses a tax id that is not a US EIN, and a legal name too long, with 400 and what to type', async () => {
    const { body: charities } = await server.api('GET', '/api/charities');
    for (const taxId of ['123456789', '12-345678', 'EIN 12-3456789', '12-34567890']) {
      const answer = await server.api('PUT', `/api/admin/charities/${charities[0].id}`, {
        ...server.admin,
        body: { taxId },
      });
      expect(answer.status, taxId).toBe(400);
      expect(answer.body.fields, taxId).toEqual({
        taxId: 'Tax id must be a US EIN: 2 digits, a dash and 7 digits, like 12-3456789',
      });
    }
    const long = await server.api('PUT', `/api/admin/charities/${charities[0].id}`, {
      ...server.admin,
      body: { legalName: 'x'.repeat(201) },
    });
    expect(long).toMatchObject({
      status: 400,
      body: { error: 'Legal name must be at most 200 characters' },
    });
  });

  it('answers 404 for an unknown charity and 400 for a change that changes nothing', async () => {
    const unknown = await server.api('PUT', '/api/admin/charities/no-such-charity', {
      ...server.admin,
      body: { name: 'X' },
    });
    expect(unknown).toMatchObject({ status: 404, body: { error: 'Charity not found' } });
    const { body: charities } = await server.api('GET', '/api/charities');
    const same = await server.api('PUT', `/api/admin/charities/${charities[0].id}`, {
      ...server.admin,
      body: { name: charities[0].name },
    });
    expect(same).toMatchObject({ status: 400, body: { error: 'No charity field changes' } });
    const empty = await server.api('PUT', `/api/admin/charities/${charities[0].id}`, { ...server.admin, body: {} });
    expect(empty).toMatchObject({ status: 400, body: { error: 'Give at least one field to change', fields: {} } });
  });
});

describe('shirts through the admin API', () => {
  it('adds a shirt in dollars and the shop lists it', async () => {
    const fields = {
      name: 'Admin Special',
      description: 'Made in the admin area.',
      price: 24.99,
      category: 'Limited',
      sizes: ['S', 'M'],
      tags: ['new'],
      images: [front, back],
    };
    const created = await server.api('POST', '/api/admin/shirts', { ...server.admin, body: fields });
    expect(created.status).toBe(201);
    expect(shirt.parse(created.body)).toEqual({ ...fields, id: expect.any(String) });

    await server.embedded.projectionsCaughtUp(WAIT_MS);
    expect((await server.api('GET', '/api/shirts')).body.at(-1)).toEqual(created.body);
  });

  it('updates a shirt, seen in GET /api/shirt/{id} and the list once projected', async () => {
    const { body: shirts } = await server.api('GET', '/api/shirts');
    const target = shirts[0];
    const changes = { name: 'Plot Twist Deluxe', price: 31.5, sizes: ['M', 'L', 'XXL'], tags: ['deluxe'] };
    const changed = await server.api('PUT', `/api/admin/shirts/${target.id}`, { ...server.admin, body: changes });
    expect(changed).toMatchObject({ status: 200, body: { ...target, ...changes } });

    await server.embedded.projectionsCaughtUp(WAIT_MS);
    expect((await server.api('GET', `/api/shirt/${target.id}`)).body).toEqual(changed.body);
    expect((await server.api('GET', '/api/shirts')).body[0]).toEqual(changed.body);
  });

  it('answers 400 with a problem per field, nested ones by their path', async () => {
    const answer = await server.api('POST', '/api/admin/shirts', {
      ...server.admin,
      body: {
        name: 'Broken',
        price: 10.005,
        sizes: ['M', 'M'],
        tags: 'summer',
        images: [front, { ...back, id: 'front', url: 'javascript:alert(1)', isMain: 'yes' }],
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.fields).toEqual({
      description: 'Description is required',
      price: 'Price must be in whole cents',
      sizes: 'Sizes must not repeat',
      tags: 'Tags must be a list',
      'images.1.url': 'Image address must start with https://, http:// or /',
      'images.1.isMain': 'Main image must be true or false',
    });
  });

  it('refuses two main images and an unknown shirt', async () => {
    const twoMain = await server.api('POST', '/api/admin/shirts', {
      ...server.admin,
      body: { name: 'Two Faces', description: '', price: 5, sizes: ['M'], images: [front, { ...back, isMain: true }] },
    });
    expect(twoMain).toMatchObject({
      status: 400,
      body: { fields: { images: 'At most one image may be the main image' } },
    });
    const unknown = await server.api('PUT', '/api/admin/shirts/no-such-shirt', { ...server.admin, body: { price: 3 } });
    expect(unknown).toMatchObject({ status: 404, body: { error: 'Shirt not found' } });
  });
});
