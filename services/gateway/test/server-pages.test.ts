import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { charity as charitySchema, charityWithStatus } from '@qrshirt/contracts';
import { createFundraiser, launchProcess, scaled, WAIT_MS } from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminTestServer, startAdminServer } from './support/admin';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web');

/** What a member may give as a charity, and a page must show as text, never run or break out of. */
const hostile = {
  name: `<script>alert("name")</script> O'Brien & "Sons"`,
  mission: `Clean water</p><script>alert('mission')</script> for "everyone" & <b>all</b>`,
  website_url: `https://help.example.org/?q="><script>alert('url')</script>&x='y'`,
};

/** HTML's escapes as React and the page's head write them, read back. */
const unescapeHtml = (text: string) =>
  text.replace(/&(lt|gt|quot|amp|#x27|#39);/g, (_, name: string) => {
    const characters: Record<string, string> = { lt: '<', gt: '>', quot: '"', amp: '&', '#x27': "'", '#39': "'" };
    return characters[name]!;
  });

/** Every `<script ...>` opening tag of the page. */
const scriptTags = (html: string) => html.match(/<script\b[^>]*>/g) ?? [];

const pageScript = expect.stringMatching(/^<script type="module" async src="\/assets\/pages-[\w-]+\.js">$/);

/** Nothing from the data became markup: two scripts, the page's own and its JSON. */
function expectOnlyThePagesScripts(html: string): void {
  expect(scriptTags(html)).toEqual([pageScript, '<script type="application/json" id="page-data">']);
}

/** The JSON the page hydrates from. */
function pageData(html: string): unknown {
  const json = /<script type="application\/json" id="page-data">([^<]*)<\/script>/.exec(html)?.[1];
  if (json === undefined) throw new Error(`no page data in:\n${html}`);
  return JSON.parse(json);
}

/** The islands of a page whose content stays static, in order: each one's name and the props it hydrates from. */
function islands(html: string): { name: string; props: unknown }[] {
  return [...html.matchAll(/<div data-island="([^"]*)" data-props="([^"]*)"/g)].map((match) => ({
    name: match[1]!,
    props: JSON.parse(unescapeHtml(match[2]!)),
  }));
}

let server: AdminTestServer;
let fundraiserId: string;
let ownerId: string;
let charityId: string;

beforeAll(async () => {
  // The gateway renders the landing with web/dist-server, which `npm start` builds the same way.
  const build = launchProcess({ name: 'web build', entry: path.join(webDir, 'scripts/build-if-stale.ts') });
  expect(await build.exited, build.output.join('\n')).toBe(0);
  server = await startAdminServer();
  const submitted = await server.api('POST', '/api/charity', { ...server.member, body: hostile });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
  charityId = charityWithStatus.parse(submitted.body).id;
  const approved = await server.api('POST', `/api/admin/charities/${charityId}/approve`, server.admin);
  expect(approved.status).toBe(200);
  ({ id: fundraiserId, userId: ownerId } = await createFundraiser(server.api, server.member, { charityId }));
}, scaled(300_000));
afterAll(() => server?.stop());

describe('the QR landing rendered by the gateway', () => {
  it("answers with HTML that already holds the fundraiser's charity, its data escaped wherever it stands", async () => {
    const answer = await fetch(`${server.url}/fundraiser/${fundraiserId}?scan=true`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    const html = await answer.text();

    // The page's own script: only the islands hydrate, from their own props. Beside it, as
    // data, the charity, for the local cache.
    expectOnlyThePagesScripts(html);
    expect(html).not.toContain('<b>all</b>');
    expect(html).not.toContain(`"><script>`);

    // Shown as text: the joke header, About This Cause, the title; the website as the link's address.
    // React separates adjacent text with empty comments.
    const text = unescapeHtml(html.replaceAll('<!-- -->', ''));
    expect(text).toContain(`Just a chance to turn that curiosity into something good for ${hostile.name}`);
    expect(text).toContain(hostile.mission);
    expect(unescapeHtml(/<title>([^<]*)<\/title>/.exec(html)![1]!)).toBe(
      `Support ${hostile.name} · QR Shirts for Charity`,
    );
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((match) => unescapeHtml(match[1]!));
    expect(hrefs).toContain(hostile.website_url);
    expect(text).toContain('Plot twist: you just scanned a stranger');

    // The islands' props, the browser's only data, read back exactly as the API answers them. The
    // owner's figures ask the gateway whether the fundraiser is the caller's: the page names no owner.
    const charity = await server.api('GET', `/api/charity/${charityId}`);
    expect(charity.body).toMatchObject(hostile);
    expect(islands(html)).toEqual([
      { name: 'owner-stats', props: { fundraiserId } },
      { name: 'donation', props: { fundraiserId, charityName: hostile.name } },
    ]);
    expect(html).not.toContain(ownerId);
    // As the app's own load caches it: the charity's public fields.
    expect(pageData(html)).toEqual({ charity: charitySchema.parse(charity.body) });
  });

  it('answers an unknown fundraiser with the landing\'s "Fundraiser not found" and a 404', async () => {
    const answer = await fetch(`${server.url}/fundraiser/no-such-fundraiser`);
    expect(answer.status).toBe(404);
    const html = await answer.text();
    expect(html).toContain('Fundraiser not found');
    // Try Again is a form to this address: nothing of the view hydrates.
    expect(html).toContain('<form action="/fundraiser/no-such-fundraiser" method="get">');
    expect(html).toContain('Try Again');
    expect(islands(html)).toEqual([]);
    expect(html).not.toContain('page-data');
  });

  it('answers a short link nobody holds with the same view and a 404', async () => {
    const answer = await fetch(`${server.url}/q/zzzzzzzz`, { redirect: 'manual' });
    expect(answer.status).toBe(404);
    const html = await answer.text();
    expect(html).toContain('Fundraiser not found');
    expect(html).toContain('<form action="/q/zzzzzzzz" method="get">');
    expect(islands(html)).toEqual([]);
  });
});

describe("the shop and a shirt's page rendered by the gateway", () => {
  it('answers with HTML that already lists the catalogue, a shirt given as markup shown as text', async () => {
    const fields = {
      name: `<script>alert("shirt")</script> "Deluxe" & Co's`,
      description: `</script><script>alert('description')</script>`,
      price: 19.5,
      category: `<b>Limited</b>`,
      sizes: ['M'],
      tags: [`<img src=x onerror=alert(1)>`],
      images: [{ id: 'front', url: `/images/shirts/plot-twist-1.svg?"><script>`, alt: `"><script>`, isMain: true }],
    };
    const created = await server.api('POST', '/api/admin/shirts', { ...server.admin, body: fields });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await server.embedded.projectionsCaughtUp(WAIT_MS);

    const answer = await fetch(`${server.url}/shop`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    const html = await answer.text();
    expectOnlyThePagesScripts(html);
    expect(html).not.toContain('<b>Limited</b>');
    expect(html).not.toContain('<img src=x');
    const text = unescapeHtml(html.replaceAll('<!-- -->', ''));
    expect(text).toContain('Our Shirts Collection');
    expect(text).toContain(fields.name);
    expect(pageData(html)).toEqual({ shirts: (await server.api('GET', '/api/shirts')).body });

    // The shirt's own page, the same way, with the charities its form offers.
    const page = await fetch(`${server.url}/shirt/${created.body.id}`);
    expect(page.status).toBe(200);
    const shirtHtml = await page.text();
    expectOnlyThePagesScripts(shirtHtml);
    expect(shirtHtml).not.toContain(`"><script>`);
    expect(unescapeHtml(/<title>([^<]*)<\/title>/.exec(shirtHtml)![1]!)).toBe(`${fields.name} · QR Shirts for Charity`);
    expect(unescapeHtml(shirtHtml.replaceAll('<!-- -->', ''))).toContain(fields.description);
    expect(pageData(shirtHtml)).toEqual({
      shirt: created.body,
      charities: (await server.api('GET', '/api/charities')).body,
    });
  });

  it("leaves an unknown shirt to the app's Shirt Not Found", async () => {
    const answer = await fetch(`${server.url}/shirt/no-such-shirt`);
    expect(answer.status).toBe(200);
    expect(await answer.text()).not.toContain('page-data');
  });
});
