import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { charityList, shirtList } from '@qrshirt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createFundraiser, newClient, signUp, uniqueEmail, WAIT_MS } from '@qrshirt/test-support';
import { startTestServer, type TestServer } from './support/test-server';

const docFile = fileURLToPath(new URL('../../../docs/spec-differences.md', import.meta.url));
/** Beside the repository, as the docs name it; a checkout without it skips only the quoting check. */
const specFile = fileURLToPath(new URL('../../../../shared/spec/product-spec.md', import.meta.url));

interface Difference {
  heading: string;
  specWords: string;
}

/** Each `##` paragraph of the file, with the spec's words it quotes on its `Spec:` line. */
function differences(text: string): Difference[] {
  return text
    .split(/^## /m)
    .slice(1)
    .map((section) => {
      const heading = section.slice(0, section.indexOf('\n')).trim();
      const specWords = /^Spec: "(.+)"$/m.exec(section)?.[1] ?? '';
      return { heading, specWords };
    });
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

/** For each paragraph, what the product does instead of the spec's row: each fails once the product follows the row. */
const stillDiffers: Record<string, () => Promise<void>> = {
  'Accounts and analytics of its own': async () => {
    const session = await signUp(server.api);
    expect(session.accessToken).toEqual(expect.any(String));
    const analytics = await server.api('POST', '/api/analytics', {
      ...as(session),
      body: { events: [{ type: 'page_view', path: '/' }] },
    });
    expect(analytics.status).toBe(202);
  },
  "A shirt's carousel and charity selector answer once the page is live": async () => {
    const [shirt] = shirtList
      .parse((await server.api('GET', '/api/shirts')).body)
      .filter((listed) => listed.images.length > 1);
    const html = await (await fetch(`${server.url}/shirt/${shirt!.id}`)).text();
    for (const control of [/<button[^>]*aria-label="Next image"[^>]*>/, /<input[^>]*id="waitlist-charity"[^>]*>/]) {
      expect(control.exec(html)?.[0]).toMatch(/ disabled=""/);
    }
  },
  'A proof of work instead of app attestation': async () => {
    const challenge = await server.api('GET', '/api/challenge');
    expect(challenge.status).toBe(200);
    expect(challenge.body).toMatchObject({ parameters: { algorithm: 'SHA-256' }, signature: expect.any(String) });
  },
  "The server checks the waitlist email's format": async () => {
    const [shirt] = shirtList.parse((await server.api('GET', '/api/shirts')).body);
    const [charity] = charityList.parse((await server.api('GET', '/api/charities')).body);
    const answer = await server.api('POST', '/api/waitlist', {
      headers: newClient(),
      body: {
        name: 'Ada',
        email: 'not an address',
        selectedSize: shirt!.sizes[0],
        selectedCharity: charity!.id,
        shirtId: shirt!.id,
      },
    });
    expect(answer).toMatchObject({ status: 400, body: { error: 'email must be a valid email address' } });
  },
  'Creating a charity takes its details': async () => {
    const member = as(await signUp(server.api));
    expect((await server.api('POST', '/api/charity', member)).status).toBe(400);
    const created = await server.api('POST', '/api/charity', {
      ...member,
      body: { name: 'Bees Please', mission: 'Keeps bees.', website_url: 'https://bees.example.org' },
    });
    expect(created).toMatchObject({ status: 201, body: { status: 'pending' } });
  },
  'One answer for an unknown email and a wrong password': async () => {
    const email = uniqueEmail('known');
    await signUp(server.api, { email, password: 'correct horse' });
    const unknown = await server.api('POST', '/api/auth/signin', {
      headers: newClient(),
      body: { email: uniqueEmail('nobody'), password: 'correct horse' },
    });
    const wrong = await server.api('POST', '/api/auth/signin', {
      headers: newClient(),
      body: { email, password: 'wrong horse' },
    });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
  },
  'The dashboard lists the charities a member submitted': async () => {
    const session = await signUp(server.api);
    const member = as(session);
    const created = await server.api('POST', '/api/charity', {
      ...member,
      body: { name: 'Wasp Watch', mission: 'Counts wasps.', website_url: 'https://wasps.example.org' },
    });
    expect(created.status).toBe(201);
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const listed = await server.api('GET', `/api/user/${session.user.uid}/charities`, member);
    expect(listed).toMatchObject({
      status: 200,
      body: { charities: [{ id: created.body.id, name: 'Wasp Watch', status: 'pending' }] },
    });
  },
  'The public fundraiser answer says whether it is yours, not whose it is': async () => {
    const owner = as(await signUp(server.api));
    const fundraiser = await createFundraiser(server.api, owner);
    const [stranger, own] = await Promise.all([
      server.api('GET', `/api/fundraisers/${fundraiser.id}`),
      server.api('GET', `/api/fundraisers/${fundraiser.id}`, owner),
    ]);
    expect(stranger.body).toMatchObject({ id: fundraiser.id, owned: false });
    expect(own.body).toMatchObject({ id: fundraiser.id, owned: true });
    expect(stranger.body).not.toHaveProperty('userId');
  },
  "A reported donation awaits the processor's confirmation": async () => {
    const owner = as(await signUp(server.api));
    const fundraiser = await createFundraiser(server.api, owner);
    const reported = await server.api('POST', `/api/fundraisers/${fundraiser.id}/donate`, { body: { amount: 12.5 } });
    expect(reported.status).toBe(201);
    await server.embedded.projectionsCaughtUp(WAIT_MS);
    const stats = await server.api('GET', `/api/fundraisers/${fundraiser.id}/stats`, owner);
    expect(stats.body).toMatchObject({ amountRaised: 0, amountReported: 12.5 });
  },
};

describe('docs/spec-differences.md', () => {
  const found = differences(readFileSync(docFile, 'utf8'));

  it('has a check here for each paragraph, and no check without its paragraph', () => {
    expect(found.map((difference) => difference.heading).sort()).toEqual(Object.keys(stillDiffers).sort());
  });

  it.skipIf(!existsSync(specFile))("quotes each paragraph's row from the spec word for word", () => {
    const spec = readFileSync(specFile, 'utf8');
    for (const { heading, specWords } of found) {
      expect(specWords, heading).not.toBe('');
      expect(spec, heading).toContain(specWords);
    }
  });

  for (const { heading } of found) {
    it(`still differs from the spec: ${heading}`, async () => {
      const check = stillDiffers[heading];
      expect(check, `no check for "${heading}"`).toBeDefined();
      await check!();
    });
  }
});
