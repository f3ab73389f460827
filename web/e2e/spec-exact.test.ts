import type { Charity, Fundraiser, Shirt } from '@qrshirt/contracts';
import type { Page, Request } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { createFundraiser, signUpThroughApi } from './support/accounts';
import { watchedPage } from './support/browser';
import { describeInBrowser, PHONE_USER_AGENT } from './support/describe-in-browser';

const MINUTE = 60_000;
/** The product's key prefix in the local cache (spec section 9). */
const PREFIX = 'qrshirt_cache_';

interface CachedEntry {
  timestamp: number;
  ttl: number;
}

/** The local cache's entry under `key`, once the page has written it. */
async function cachedEntry(page: Page, key: string): Promise<CachedEntry> {
  const entry = await page.waitForFunction((name) => localStorage.getItem(name), PREFIX + key);
  return JSON.parse((await entry.jsonValue())!) as CachedEntry;
}

/** Every API request the page sends, by path. */
function apiRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request: Request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/')) paths.push(`${request.method()} ${pathname}`);
  });
  return paths;
}

/** The next document the page loads, which a click is about to cause. */
const nextDocumentLoad = (page: Page) =>
  page.waitForRequest((request) => request.isNavigationRequest() && request.resourceType() === 'document');

/**
 * The pages this page loads from now on start without `key` in the local cache, so that their
 * warm-up (spec section 9: the shirts, then the charities, 2 s after the load) fetches and stores
 * it: the positive sign that the warm-up ran, with what came before it in the warm-up done.
 */
const withoutCached = (page: Page, key: string) =>
  page.addInitScript((name) => localStorage.removeItem(name), PREFIX + key);

/**
 * The warm-up's request for the charities from the page at `pathname` (not the one before it),
 * which comes after its look at the shirts.
 */
const charitiesWarmedUp = (page: Page, pathname: string) =>
  page.waitForRequest(
    (request) => request.url().endsWith('/api/charities') && new URL(request.frame().url()).pathname === pathname,
  );

/**
 * Holds the cache warm-up (spec section 9: a timer of 2 s, set as the app starts) until the
 * answered function is called: on a busy machine the 2 s can pass before the test has reached the
 * page it means the warm-up to run on. Only a timer of exactly that delay is held.
 */
async function holdWarmUp(page: Page): Promise<() => Promise<void>> {
  await page.addInitScript((delay) => {
    const held = new Map<number, () => void>();
    const set = window.setTimeout.bind(window);
    const clear = window.clearTimeout.bind(window);
    window.setTimeout = ((handler: TimerHandler, timeout?: number, ...args: unknown[]) => {
      if (timeout !== delay || typeof handler !== 'function') return set(handler, timeout, ...args);
      // An id of a timer of its own that never fires, so that clearing it works as it would.
      const id = set(() => {}, 2 ** 31 - 1);
      held.set(id, () => (handler as (...args: unknown[]) => void)(...args));
      return id;
    }) as typeof window.setTimeout;
    window.clearTimeout = ((id?: number) => {
      if (id !== undefined) held.delete(id);
      clear(id);
    }) as typeof window.clearTimeout;
    Object.assign(window, {
      releaseWarmUp: () => {
        const due = [...held.values()];
        held.clear();
        due.forEach((run) => run());
      },
    });
  }, 2000);
  return () => page.evaluate(() => (window as unknown as { releaseWarmUp(): void }).releaseWarmUp());
}

async function toastTitled(page: Page, title: string) {
  const toast = page.locator('.mantine-Notification-root', { hasText: title }).last();
  await toast.waitFor({ state: 'visible' });
  return toast;
}

describeInBrowser('the spec, exactly, on every page', ({ appUrl, newContext }) => {
  let fundraiser: Fundraiser;
  let shirts: Shirt[];
  let charities: Charity[];

  beforeAll(async () => {
    const owner = await signUpThroughApi(appUrl, 'Exa');
    fundraiser = await createFundraiser(appUrl, owner.session);
    shirts = (await (await fetch(`${appUrl}/api/shirts`)).json()) as Shirt[];
    charities = (await (await fetch(`${appUrl}/api/charities`)).json()) as Charity[];
  });

  it('keeps the shirts the server-rendered shop showed in the local cache for 10 min, read by the next page', async () => {
    const { page, errors } = await watchedPage(await newContext());
    const visitedAt = Date.now();
    await page.goto('/shop');
    const entry = await cachedEntry(page, 'shirts_all');
    expect(entry.ttl).toBe(10 * MINUTE);
    expect(entry.timestamp).toBeGreaterThanOrEqual(visitedAt - 1000);

    const requests = apiRequests(page);
    await withoutCached(page, 'charities_all');
    const warmedUp = charitiesWarmedUp(page, '/privacy');
    await page.goto('/privacy');
    await page.getByRole('heading', { name: 'Privacy Policy', level: 1 }).waitFor();
    // The warm-up reads the shirts from the cache instead of asking again; it asks for the
    // charities next, so a request for the shirts would have gone first.
    await warmedUp;
    expect(requests.filter((request) => request === 'GET /api/shirts')).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("keeps a server-rendered shirt page's shirt for 15 min and its charities for 30 min, read by the next page", async () => {
    const { page, errors } = await watchedPage(await newContext());
    const shirt = shirts[0]!;
    await page.goto(`/shirt/${shirt.id}`);
    expect((await cachedEntry(page, `shirt_${shirt.id}`)).ttl).toBe(15 * MINUTE);
    expect((await cachedEntry(page, 'charities_all')).ttl).toBe(30 * MINUTE);
    await cachedEntry(page, 'shirts_all');

    const requests = apiRequests(page);
    await withoutCached(page, 'shirts_all');
    await page.goto('/privacy');
    await page.getByRole('heading', { name: 'Privacy Policy', level: 1 }).waitFor();
    // The warm-up fetches the shirts it was made to miss, and reads the charities from the cache:
    // a request for them would have gone right after the shirts', before their answer was stored.
    await cachedEntry(page, 'shirts_all');
    expect(requests.filter((request) => /^GET \/api\/(charities|shirts)$/.test(request))).toEqual(['GET /api/shirts']);
    expect(errors).toEqual([]);
  });

  it("keeps a server-rendered landing's charity for 60 min, read by the app's landing next", async () => {
    const { page, errors } = await watchedPage(await newContext());
    await page.goto(`/fundraiser/${fundraiser.id}`);
    expect((await cachedEntry(page, `charity_${fundraiser.charityId}`)).ttl).toBe(60 * MINUTE);

    const requests = apiRequests(page);
    await page.goto(`/qr/${fundraiser.id}`);
    await page.getByRole('heading', { name: 'About This Cause' }).waitFor();
    expect(requests).toContain(`GET /api/fundraisers/${fundraiser.id}`);
    expect(requests.filter((request) => request.startsWith('GET /api/charity/'))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("reloads the page from the landing's Try Again, wherever its error view shows", async () => {
    const { page } = await watchedPage(await newContext());
    await page.goto('/qr/nobody-has-this-one');
    await page.getByText('Fundraiser not found').waitFor();
    let reloaded = nextDocumentLoad(page);
    await page.getByRole('button', { name: 'Try Again' }).click();
    expect(new URL((await reloaded).url()).pathname).toBe('/qr/nobody-has-this-one');

    await page.route('**/api/charity/**', (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":"gone"}' }),
    );
    await page.goto(`/qr/${fundraiser.id}`);
    await page.getByText('Failed to load data').waitFor();
    reloaded = nextDocumentLoad(page);
    await page.getByRole('button', { name: 'Try Again' }).click();
    expect(new URL((await reloaded).url()).pathname).toBe(`/qr/${fundraiser.id}`);
  });

  it('says a shirt nobody has failed to load, in the page and in a toast, and leads back to the shop', async () => {
    const { page } = await watchedPage(await newContext());
    await page.goto('/shirt/no-such-shirt');
    await page.getByRole('heading', { name: 'Shirt Not Found' }).waitFor();
    await page.getByText('Failed to load shirt. Please try again.').waitFor();
    const toast = await toastTitled(page, 'Error Loading Shirt');
    expect(await toast.innerText()).toContain('Failed to load shirt data. Please refresh the page.');
    expect(await page.getByRole('link', { name: 'Back to Shop' }).getAttribute('href')).toBe('/shop');
  });

  it("shows 'Error Loading Shirts' on the server-rendered shop when a later load fails", async () => {
    const context = await newContext();
    const { page } = await watchedPage(context);
    await page.clock.install();
    await page.goto('/shop');
    // Live once the warm-up, 2 s after the load, has stored the charities.
    await cachedEntry(page, 'charities_all');
    await page.route('**/api/shirts', (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":"gone"}' }),
    );
    // Long enough for the list and its cached copy to be old; then the connection comes back.
    await page.clock.fastForward('31:00');
    await context.setOffline(true);
    await context.setOffline(false);
    await page.getByRole('button', { name: 'Try Again' }).waitFor();
    const toast = await toastTitled(page, 'Error Loading Shirts');
    expect(await toast.innerText()).toContain('Failed to load shirts. Please refresh the page.');
  });

  it("leaves the shop's error view alone until Try Again: the warm-up asks no more, the toast shows once", async () => {
    const { page } = await watchedPage(await newContext());
    const requests = apiRequests(page);
    await page.route('**/api/shirts', (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":"gone"}' }),
    );
    const warmedUp = charitiesWarmedUp(page, '/shop');
    const releaseWarmUp = await holdWarmUp(page);
    await page.goto('/privacy');
    // Inside the app, before its warm-up runs.
    await page.getByRole('banner').getByRole('link', { name: 'Shop' }).click();
    await page.getByRole('button', { name: 'Try Again' }).waitFor();
    // Nothing is cached in a new browser: the warm-up asks for the charities, after it passed the
    // shirts by.
    await releaseWarmUp();
    await warmedUp;
    expect(requests.filter((request) => request === 'GET /api/shirts')).toHaveLength(1);
    expect(await page.getByText('Loading shirts...').count()).toBe(0);
    expect(await page.locator('.mantine-Notification-root', { hasText: 'Error Loading Shirts' }).count()).toBe(1);
  });

  it("records the server-rendered landing's scan as the app's calls go: as JSON, with the visitor's session", async () => {
    const { page, errors } = await watchedPage(await newContext({ userAgent: PHONE_USER_AGENT }));
    const scan = page.waitForRequest(
      (request) => request.method() === 'POST' && request.url().endsWith(`/api/fundraisers/${fundraiser.id}/scan`),
    );
    await page.goto(`/fundraiser/${fundraiser.id}?scan=true`);
    const headers = (await scan).headers();
    expect(headers['content-type']).toBe('application/json');
    expect(headers.authorization).toMatch(/^Bearer \S+$/);
    expect(headers['x-user-id']).toEqual(expect.any(String));
    expect(headers['x-anonymous']).toBe('true');
    await page.waitForURL((url) => !url.search.includes('scan'));
    expect(errors).toEqual([]);
  });

  it('reports a donation with the body the spec gives: the amount alone', async () => {
    const { page, errors } = await watchedPage(await newContext());
    const reports: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/api/fundraisers/${fundraiser.id}/donate`)) {
        reports.push(request.postDataJSON());
      }
    });
    await page.goto(`/fundraiser/${fundraiser.id}`);
    const widget = page.frameLocator('iframe[title="Donation widget"]');
    await widget.getByRole('radio', { name: '$25' }).check();
    await widget.getByRole('button', { name: 'Donate (demo)' }).click();
    await page.getByTestId('donation-thanks').waitFor();
    expect(reports).toEqual([{ amount: 25 }]);
    expect(errors).toEqual([]);
  });

  it('answers any other address, a file name included, with the Page Not Found and a 404', async () => {
    const { page } = await watchedPage(await newContext());
    const answer = await page.goto('/anything.txt');
    expect(answer?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await page.getByRole('link', { name: 'Go Home' }).waitFor();
  });

  it("writes the charity badge as the spec does: '{n} available'", async () => {
    const { page, errors } = await watchedPage(await newContext());
    await page.goto(`/shirt/${shirts[0]!.id}`);
    const badge = page.locator('.mantine-Badge-root', { hasText: /available/i });
    await badge.waitFor();
    expect(await badge.innerText()).toBe(`${charities.length} available`);
    expect(errors).toEqual([]);
  });
});
