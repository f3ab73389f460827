import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFundraiser, signUpThroughApi } from './support/accounts';
import { startApp } from './support/app-process';
import { watchedPage } from './support/browser';
import { describeInBrowser, PHONE_USER_AGENT } from './support/describe-in-browser';

/** The headers by which a request says who is asking (spec section 7), anonymous or not. */
const IDENTITY_HEADERS = ['authorization', 'x-user-id', 'x-anonymous', 'x-anonymous-attempted', 'x-anonymous-failed'];

interface Call {
  path: string;
  /** The identity headers it carried. */
  identity: string[];
}

/** Every call a context's pages make to the API, as they went: `calls()` once they all left. */
function watchCalls(context: BrowserContext, appUrl: string): { calls: () => Promise<Call[]> } {
  const calls: Promise<Call>[] = [];
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin !== appUrl || !url.pathname.startsWith('/api/')) return;
    const call = request.allHeaders().then((headers) => ({
      path: `${request.method()} ${url.pathname}`,
      identity: IDENTITY_HEADERS.filter((name) => name in headers),
    }));
    // A request made after `calls()` was read (a late cache warm-up) loses its headers when the
    // context closes: nothing waits for it, so its rejection must not reach the run as unhandled.
    call.catch(() => undefined);
    calls.push(call);
  });
  return { calls: () => Promise.all(calls) };
}

/** The cache warm-up (about 2 s after a page's load) has read these lists through the API client. */
async function warmedUp(page: Page, keys: string[]): Promise<void> {
  await page.waitForFunction((names) => names.every((key) => localStorage.getItem(`qrshirt_cache_${key}`)), keys);
}

describeInBrowser('with anonymous authentication turned off (ANONYMOUS_AUTH=false)', ({ newContext }) => {
  let app: Awaited<ReturnType<typeof startApp>> | undefined;
  beforeAll(async () => {
    // A second product, from the same build: the pages learn the setting from the gateway.
    app = await startApp({ env: { ANONYMOUS_AUTH: 'false' } });
  });
  afterAll(() => app?.stop());

  it('shows every public screen, joins the waitlist and records a scan, with no session and no identity header', async () => {
    const appUrl = app!.url;
    const owner = await signUpThroughApi(appUrl, 'Owner');
    const fundraiser = await createFundraiser(appUrl, owner.session);
    const charity = (await (await fetch(`${appUrl}/api/charity/${fundraiser.charityId}`)).json()) as { name: string };

    const context = await newContext({ userAgent: PHONE_USER_AGENT });
    const watched = watchCalls(context, appUrl);
    const { page, errors } = await watchedPage(context);

    await page.goto(`${appUrl}/`);
    await page.getByRole('heading', { name: 'How It Works' }).waitFor();
    await warmedUp(page, ['shirts_all', 'charities_all']);

    await page.goto(`${appUrl}/shop`);
    await page.getByRole('heading', { name: 'Our Shirts Collection' }).waitFor();
    expect(await page.getByTestId('shirt-card').count()).toBeGreaterThan(0);
    const lastCard = page.getByTestId('shirt-card').last();
    const shirtName = (await lastCard.getByRole('heading').textContent())!;
    await lastCard.getByRole('link', { name: 'Join Waitlist' }).click();
    await page.waitForURL('**/shirt/**');

    await page.getByRole('heading', { name: 'Join the Waitlist' }).waitFor();
    expect(await page.getByRole('heading', { name: shirtName }).count()).toBe(1);
    await page.getByRole('button', { name: 'M', exact: true }).click();
    await page.getByRole('combobox', { name: 'Choose a charity to support' }).click();
    await page.getByRole('option').first().click();
    await page.getByLabel('Your Name').fill('Ada Lovelace');
    await page.getByLabel('Email Address').fill(`ada-${Date.now()}@example.com`);
    await page.getByRole('button', { name: 'Join Waitlist' }).click();
    await page
      .locator('.mantine-Notification-title', { hasText: 'Welcome to the Waitlist! 🎉' })
      .waitFor({ state: 'visible' });

    const scan = page.waitForResponse((answer) => answer.url().endsWith(`/api/fundraisers/${fundraiser.id}/scan`));
    await page.goto(`${appUrl}/fundraiser/${fundraiser.id}?scan=true`);
    await page.getByRole('heading', { name: 'About This Cause' }).waitFor();
    await page.getByRole('link', { name: `Learn more about ${charity.name}` }).waitFor();
    expect((await scan).ok()).toBe(true);
    await page.waitForURL((url) => !url.search.includes('scan'));

    // The app's own pages (index.html) too: the privacy policy, then the shop inside the app.
    await page.goto(`${appUrl}/privacy`);
    await page.getByRole('heading', { name: 'Privacy Policy', level: 1 }).waitFor();
    await page.evaluate(() => localStorage.clear());
    await page.getByRole('link', { name: 'Shop', exact: true }).first().click();
    await page.getByTestId('shirt-card').first().waitFor();

    const calls = await watched.calls();
    const paths = calls.map((call) => call.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'POST /api/waitlist',
        `POST /api/fundraisers/${fundraiser.id}/scan`,
        'GET /api/shirts',
        'GET /api/charities',
      ]),
    );
    expect(paths.filter((path) => path.startsWith('POST /api/auth/'))).toEqual([]);
    expect(calls.filter((call) => call.identity.length > 0)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
