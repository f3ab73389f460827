import { authSession } from '@qrshirt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, signUp } from '@qrshirt/test-support';
import { startTestServer, type TestServer } from './support/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const anonymousSession = async () => authSession.parse((await server.api('POST', '/api/auth/anonymous')).body);

async function createFundraiserAs(session: Parameters<typeof as>[0]) {
  const [shirts, charities] = await Promise.all([
    server.api('GET', '/api/shirts'),
    server.api('GET', '/api/charities'),
  ]);
  const answer = await server.api('POST', '/api/fundraisers', {
    ...as(session),
    body: { shirtId: shirts.body[0].id, charityId: charities.body[0].id },
  });
  expect(answer.status).toBe(201);
  return answer.body as { id: string };
}

describe('PATCH /api/user/{id}', () => {
  it("changes the user's own display name and photo, which GET shows at once", async () => {
    const session = await signUp(server.api, { displayName: 'Ada' });
    const { uid } = session.user;
    const patched = await server.api('PATCH', `/api/user/${uid}`, {
      ...as(session),
      body: { displayName: 'Ada Lovelace', photoURL: 'https://img.example/ada.png' },
    });
    expect(patched).toMatchObject({
      status: 200,
      body: { uid, displayName: 'Ada Lovelace', photoURL: 'https://img.example/ada.png', email: session.user.email },
    });
    expect((await server.api('GET', `/api/user/${uid}`, as(session))).body).toEqual(patched.body);

    const onlyName = await server.api('PATCH', `/api/user/${uid}`, {
      ...as(session),
      body: { displayName: 'Countess' },
    });
    expect(onlyName.body).toMatchObject({ displayName: 'Countess', photoURL: 'https://img.example/ada.png' });
    const removePhoto = await server.api('PATCH', `/api/user/${uid}`, { ...as(session), body: { photoURL: null } });
    expect(removePhoto.body).toMatchObject({ displayName: 'Countess', photoURL: null });

    const { eventStore, personalData } = server.embedded;
    const updates = (await personalData.revealEvents(await eventStore.readStream(`user-${uid}`))).filter(
      (event) => event.type === 'UserProfileUpdated',
    );
    expect(updates.map((event) => event.data)).toEqual([
      expect.objectContaining({ displayName: 'Ada Lovelace', photoURL: 'https://img.example/ada.png' }),
      expect.objectContaining({ displayName: 'Countess' }),
      expect.objectContaining({ photoURL: null }),
    ]);
  });

  it('refuses an empty change, a bad photo URL, other users, anonymous sessions and missing tokens', async () => {
    const session = await signUp(server.api);
    const other = await signUp(server.api);
    const path = `/api/user/${session.user.uid}`;
    expect((await server.api('PATCH', path, { ...as(session), body: {} })).status).toBe(400);
    expect((await server.api('PATCH', path, { ...as(session), body: { photoURL: 'not a url' } })).status).toBe(400);
    expect((await server.api('PATCH', path, { ...as(session), body: { displayName: '   ' } })).status).toBe(400);
    expect((await server.api('PATCH', path, { ...as(other), body: { displayName: 'Mallory' } })).status).toBe(403);
    expect((await server.api('PATCH', path, { body: { displayName: 'Mallory' } })).status).toBe(401);
    const anonymous = await anonymousSession();
    const anonymousSelf = await server.api('PATCH', `/api/user/${anonymous.user.uid}`, {
      ...as(anonymous),
      body: { displayName: 'Anon' },
    });
    expect(anonymousSelf).toMatchObject({ status: 403, body: { error: expect.any(String) } });
    expect((await server.api('GET', path, as(session))).body.displayName).toBe('Ada');
  });
});

describe('who may see what', () => {
  it("answers a user's profile and stats to that user only", async () => {
    const owner = await signUp(server.api);
    const other = await signUp(server.api);
    for (const path of [`/api/user/${owner.user.uid}`, `/api/user/${owner.user.uid}/stats`]) {
      expect((await server.api('GET', path, as(owner))).status).toBe(200);
      expect(await server.api('GET', path, as(other))).toMatchObject({
        status: 403,
        body: { error: 'You can only access your own account' },
      });
      expect(await server.api('GET', path)).toMatchObject({
        status: 401,
        body: { error: 'Authentication required for this request' },
      });
    }
  });

  it("shows a fundraiser's stats to its owner only", async () => {
    const owner = await signUp(server.api);
    const other = await signUp(server.api);
    const fundraiser = await createFundraiserAs(owner);
    const path = `/api/fundraisers/${fundraiser.id}/stats`;
    expect((await server.api('GET', path, as(owner))).status).toBe(200);
    expect((await server.api('GET', path, as(other))).status).toBe(403);
    expect((await server.api('GET', path, as(await anonymousSession()))).status).toBe(403);
    expect((await server.api('GET', path)).status).toBe(401);
  });

  it('lets anonymous sessions do exactly what spec section 6 lists', async () => {
    const anonymous = await anonymousSession();
    const owner = await signUp(server.api);
    const fundraiser = await createFundraiserAs(owner);
    const shirts = await server.api('GET', '/api/shirts', as(anonymous));
    const shirt = shirts.body[0];
    const charities = await server.api('GET', '/api/charities', as(anonymous));
    const allowed = [
      shirts,
      await server.api('GET', `/api/shirt/${shirt.id}`, as(anonymous)),
      charities,
      await server.api('GET', `/api/charity/${charities.body[0].id}`, as(anonymous)),
      await server.api('GET', `/api/fundraisers/${fundraiser.id}`, as(anonymous)),
      await server.api('POST', `/api/fundraisers/${fundraiser.id}/scan`, as(anonymous)),
      await server.api('POST', `/api/fundraisers/${fundraiser.id}/donate`, { ...as(anonymous), body: { amount: 5 } }),
      await server.api('POST', '/api/waitlist', {
        ...as(anonymous),
        body: {
          name: 'Visitor',
          email: 'visitor@example.com',
          selectedSize: shirt.sizes[0],
          selectedCharity: charities.body[0].id,
          shirtId: shirt.id,
        },
      }),
      await server.api('GET', '/api/waitlist', as(anonymous)),
      await server.api('POST', '/api/analytics', {
        ...as(anonymous),
        body: { events: [{ type: 'page_view', path: '/shop' }] },
      }),
    ];
    expect(allowed.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 202, 201, 201, 200, 202]);

    const { uid } = anonymous.user;
    const refused = [
      await server.api('POST', '/api/fundraisers', {
        ...as(anonymous),
        body: { shirtId: shirt.id, charityId: charities.body[0].id },
      }),
      await server.api('POST', '/api/charity', {
        ...as(anonymous),
        body: { name: 'X', mission: 'Y', website_url: 'https://x.example' },
      }),
      await server.api('POST', '/api/user', {
        ...as(anonymous),
        body: { uid, displayName: 'Anon', email: null, photoURL: null },
      }),
      await server.api('GET', `/api/user/${uid}`, as(anonymous)),
      await server.api('GET', `/api/user/${uid}/stats`, as(anonymous)),
      await server.api('PATCH', `/api/user/${uid}`, { ...as(anonymous), body: { displayName: 'Anon' } }),
      await server.api('GET', `/api/fundraisers/${fundraiser.id}/stats`, as(anonymous)),
    ];
    for (const answer of refused) {
      expect(answer.status).toBe(403);
      expect(answer.headers.get('content-type')).toContain('application/json');
      expect(answer.body.error).toEqual(expect.any(String));
    }
  });
});
