import { adminEventsPage, type AuthSession } from '@qrshirt/contracts';
import { waitFor } from '@qrshirt/test-support';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { adminAccount } from './support/admin';
import { startApp } from './support/app-process';
import { watchedPage } from './support/browser';
import { describeInBrowser, PHONE_USER_AGENT } from './support/describe-in-browser';

interface LoggedView {
  type: string;
  data: { path?: string; shirt_id?: string; shirt_name?: string };
}

/**
 * The gap between a page's paint and its going live, held open: the chunk that hydrates it
 * (`web/dist/assets/<chunk>-<hash>.js`) waits until the answered function is called.
 */
async function holdBack(page: Page, chunk: string): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/assets/${chunk}-*.js`, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

describeInBrowser('a tap before a server-rendered page is live', ({ newContext }) => {
  // An app of its own: the test counts every page view and click in its log, which no other
  // test's visits may add to.
  let app: Awaited<ReturnType<typeof startApp>>;
  let admin: AuthSession;
  beforeAll(async () => {
    app = await startApp();
    admin = (await adminAccount(app.url, app.dataDir)).session;
  });
  afterAll(() => app?.stop());

  /** The analytics the log holds, oldest first. */
  async function logged(): Promise<LoggedView[]> {
    const answer = await fetch(`${app.url}/api/admin/events?type=PageViewed,ShirtClicked&order=oldest&limit=500`, {
      headers: { Authorization: `Bearer ${admin.accessToken}`, 'x-user-id': admin.user.uid },
    });
    if (answer.status !== 200) throw new Error(`the event log answered ${answer.status}: ${await answer.text()}`);
    return adminEventsPage.parse(await answer.json()).events as LoggedView[];
  }

  it("opens the shirt from a tap on its card's body, recording the click and both views once", async () => {
    const context = await newContext({ userAgent: PHONE_USER_AGENT, viewport: { width: 375, height: 800 } });
    const { page, errors } = await watchedPage(context);
    const release = await holdBack(page, 'shop-client');
    await page.goto(`${app.url}/shop`);
    const card = page.getByTestId('shirt-card').first();
    const shirtId = (await card.getByRole('link').first().getAttribute('href'))!.split('/').pop()!;
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-analytics-live'))).toBe(false);
    // On the card's description, away from its name and its buttons; Playwright's own click
    // would refuse, since the name's link covering the card takes the tap, as it should.
    const description = (await card.locator('p').first().boundingBox())!;
    await page.mouse.click(description.x + description.width / 2, description.y + description.height / 2);
    await page.waitForURL(`**/shirt/${shirtId}`);
    release();

    // The shirt's page, once live, records its own view: the last of the three.
    const views = await waitFor("the shirt page's view in the log", logged, (events) =>
      events.some((event) => event.data.path === `/shirt/${shirtId}`),
    );
    expect(views.map(({ type, data }) => [type, data.path ?? data.shirt_id])).toEqual([
      ['ShirtClicked', shirtId],
      ['PageViewed', '/shop'],
      ['PageViewed', `/shirt/${shirtId}`],
    ]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("keeps what is typed into a shirt's waitlist form before it is live, and sends its submit once it is", async () => {
    const shirts = (await (await fetch(`${app.url}/api/shirts`)).json()) as { id: string; sizes: string[] }[];
    const shirt = shirts[0]!;
    const context = await newContext({ userAgent: PHONE_USER_AGENT, viewport: { width: 375, height: 800 } });
    const { page, errors } = await watchedPage(context);
    const release = await holdBack(page, 'shirt-client');
    await page.goto(`${app.url}/shirt/${shirt.id}`);
    const form = page.getByRole('form', { name: 'Join the waitlist' });
    await form.getByRole('button', { name: shirt.sizes[0], exact: true }).click();
    await form.getByLabel('Your Name').fill('Early Ada');
    await form.getByLabel('Email Address').fill('early-ada@example.com');
    await form.getByRole('button', { name: 'Join Waitlist' }).click();
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-analytics-live'))).toBe(false);
    release();

    // Live, the form sends the submit it was given: the size and the typed fields were kept, so
    // what it asks for first is the charity, which only a live page can choose.
    await page.locator('.mantine-Notification-title', { hasText: 'Charity Required' }).waitFor();
    expect(page.url()).toBe(`${app.url}/shirt/${shirt.id}`);
    expect(await form.getByLabel('Your Name').inputValue()).toBe('Early Ada');
    expect(await form.getByLabel('Email Address').inputValue()).toBe('early-ada@example.com');
    expect(await form.getByRole('button', { name: shirt.sizes[0], exact: true }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await form.getByRole('combobox', { name: 'Choose a charity to support' }).click();
    await page.getByRole('option').first().click();
    await form.getByRole('button', { name: 'Join Waitlist' }).click();
    await page.locator('.mantine-Notification-title', { hasText: 'Welcome to the Waitlist!' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("reloads the landing from its not-found view's Try Again before any script of it is live", async () => {
    const context = await newContext({ userAgent: PHONE_USER_AGENT, viewport: { width: 375, height: 800 } });
    const { page } = await watchedPage(context);
    // Held for good: no script of the page ever runs but the early one.
    await holdBack(page, 'landing-script');
    await page.goto(`${app.url}/q/nobody-has-this-code?from=sticker`);
    await page.getByText('Fundraiser not found').waitFor();
    const reloaded = page.waitForRequest((request) => request.isNavigationRequest());
    await page.getByRole('button', { name: 'Try Again' }).click();
    const address = new URL((await reloaded).url());
    expect([address.pathname, address.search]).toEqual(['/q/nobody-has-this-code', '?from=sticker']);
    await page.getByText('Fundraiser not found').waitFor();
    await context.close();
  });

  it('records a live page’s click and view once, by the app alone', async () => {
    const before = (await logged()).length;
    const { page, errors } = await watchedPage(await newContext());
    await page.goto(`${app.url}/shop`);
    await page.waitForFunction(() => document.documentElement.hasAttribute('data-analytics-live'));
    const link = page.getByTestId('shirt-card').first().getByRole('link', { name: 'Join Waitlist' });
    const shirtId = (await link.getAttribute('href'))!.split('/').pop()!;
    await link.click();
    await page.waitForURL(`**/shirt/${shirtId}`);
    // Of this test's pages only: an earlier test's page may send its view as its context closes.
    const ours = (event: LoggedView) => event.type === 'ShirtClicked' || /^\/(shop|shirt\/)/.test(event.data.path!);
    const views = await waitFor(
      "the shirt page's view in the log",
      async () => (await logged()).slice(before).filter(ours),
      (events) => events.some((event) => event.data.path === `/shirt/${shirtId}`),
    );
    expect(views.map(({ type, data }) => [type, data.path ?? data.shirt_id]).sort()).toEqual(
      [
        ['PageViewed', '/shop'],
        ['ShirtClicked', shirtId],
        ['PageViewed', `/shirt/${shirtId}`],
      ].sort(),
    );
    expect(errors).toEqual([]);
  });
});
