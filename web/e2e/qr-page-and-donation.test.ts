import type { AuthSession, Fundraiser } from '@qrshirt/contracts';
import jsQR from 'jsqr';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { waitFor } from '@qrshirt/test-support';
import { createFundraiser, signUpThroughApi } from './support/accounts';
import { adminAccount, projectedUpToNow } from './support/admin';
import { checkScreen, seriousViolations, watchedPage } from './support/browser';
import { describeInBrowser, PHONE_USER_AGENT } from './support/describe-in-browser';
import { ownerStats, ownerStatsUntil } from './support/donations';

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/signin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL('**/dashboard');
}

const ANOTHER_PHONE =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';

/** A mark on the window that a reload would wipe. */
const markPage = (page: Page) => page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));
const stillTheSamePage = (page: Page) => page.evaluate(() => 'stillTheSamePage' in window);

/** The shirt's QR code as a phone reads it: the PNG the gateway draws, in the browser's pixels. */
async function readQrCode(page: Page, fundraiserId: string): Promise<string> {
  const { width, height, pixels } = await page.evaluate(async (src) => {
    const image = new Image();
    image.src = src;
    await image.decode();
    const canvas = document.createElement('canvas');
    [canvas.width, canvas.height] = [image.naturalWidth, image.naturalHeight];
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    return {
      width: canvas.width,
      height: canvas.height,
      pixels: [...context.getImageData(0, 0, canvas.width, canvas.height).data],
    };
  }, `/api/fundraisers/${fundraiserId}/qr.png`);
  const read = jsQR(Uint8ClampedArray.from(pixels), width, height);
  if (!read) throw new Error('the QR code does not read');
  return read.data;
}

async function figure(page: Page, testId: string): Promise<number> {
  const text = await page.getByTestId(testId).first().textContent();
  return Number(text!.replace(/[$,]/g, ''));
}

/** Reloads the owner's page until the figure reads `expected` (the read model lags a little). */
async function reloadUntil(page: Page, testId: string, expected: number): Promise<void> {
  const reloaded = async () => {
    await page.reload();
    return figure(page, testId);
  };
  await waitFor(`${testId} to read ${expected}`, reloaded, (value) => value === expected, { intervalMs: 300 });
}

/**
 * The scans a page sends, each settling once answered (or failed): once they all have, every scan
 * of the page is in the log.
 */
function watchScans(page: Page): { sent: () => number; answered: () => Promise<unknown> } {
  const answers: Promise<unknown>[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/fundraisers\/[^/]+\/scan$/.test(request.url())) {
      answers.push(request.response());
    }
  });
  return { sent: () => answers.length, answered: () => Promise.all(answers) };
}

describeInBrowser('a QR code scanned, a donation made', ({ appUrl, appDataDir, newContext }) => {
  let owner: { email: string; password: string; session: AuthSession };
  let fundraiser: Fundraiser;
  let admin: AuthSession;

  beforeAll(async () => {
    owner = await signUpThroughApi(appUrl, 'Olive');
    fundraiser = await createFundraiser(appUrl, owner.session);
    // Asks the projections whether the owner's figures have caught up.
    admin = (await adminAccount(appUrl, appDataDir)).session;
  });

  it("raises the owner's Total Scans by exactly one for a visit with scan=true", async () => {
    const ownerView = await watchedPage(await newContext());
    await signIn(ownerView.page, owner.email, owner.password);
    await ownerView.page.goto(`/fundraiser/${fundraiser.id}`);
    const before = await figure(ownerView.page, 'total-scans');

    const scanner = await watchedPage(await newContext({ userAgent: PHONE_USER_AGENT }));
    const scans = watchScans(scanner.page);
    await scanner.page.goto(`/fundraiser/${fundraiser.id}?scan=true`);
    await scanner.page.getByRole('heading', { name: 'About This Cause' }).waitFor();
    // Recorded once, the flag leaves the address: a reload is not another scan.
    await scanner.page.waitForURL((url) => !url.search.includes('scan'));
    // Live, its owner's figures island has rendered: nothing, for a visitor.
    await scanner.page.locator('iframe[title="Donation widget"]').waitFor();
    expect(await scanner.page.getByText('Impact Stats').count()).toBe(0);
    // Nor does the page, or anything it read, name the owner's account.
    expect(await scanner.page.content()).not.toContain(owner.session.user.uid);
    expect(await checkScreen(scanner.page, 'qr-landing')).toEqual([]);
    await scanner.page.reload();
    await scanner.page.getByRole('heading', { name: 'About This Cause' }).waitFor();
    // The reloaded page is live (its donation card hydrated), so past its scan, which comes first.
    await scanner.page.locator('iframe[title="Donation widget"]').waitFor();
    await scans.answered();
    expect(scans.sent()).toBe(1);

    await reloadUntil(ownerView.page, 'total-scans', before + 1);
    // Every scan the scanner sent is projected by now: the figure is final.
    await projectedUpToNow(appUrl, admin, 'fundraisers');
    await ownerView.page.reload();
    expect(await figure(ownerView.page, 'total-scans')).toBe(before + 1);

    await ownerView.page.goto('/dashboard');
    expect(await figure(ownerView.page, 'stat-qr-scans')).toBe(before + 1);
    expect(ownerView.errors).toEqual([]);
    expect(scanner.errors).toEqual([]);
  });

  it("shows the fundraiser's charity before any script runs: the page comes rendered, and reads with JavaScript off", async () => {
    const charities = (await (await fetch(`${appUrl}/api/charities`)).json()) as { id: string; name: string }[];
    const charity = charities.find((known) => known.id === fundraiser.charityId)!;
    const { page, errors } = await watchedPage(
      await newContext({ userAgent: PHONE_USER_AGENT, javaScriptEnabled: false }),
    );
    const answer = await page.goto(`/fundraiser/${fundraiser.id}`);
    expect(answer?.status()).toBe(200);
    await page.getByRole('heading', { name: "Plot twist: you just scanned a stranger's shirt." }).waitFor();
    expect(await page.title()).toBe(`Support ${charity.name} · QR Shirts for Charity`);
    expect(await page.getByText(charity.name, { exact: true }).count()).toBe(1);
    expect(await page.getByRole('link', { name: `Learn more about ${charity.name}` }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'About This Cause' }).count()).toBe(1);
    // The widget's frame is the one part that waits for JavaScript.
    expect(await page.locator('iframe[title="Donation widget"]').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("runs no React for a visitor who only reads: the donation card works without it, and the menu's first tap brings the layout", async () => {
    const { page, errors } = await watchedPage(await newContext({ userAgent: PHONE_USER_AGENT }));
    await page.setViewportSize({ width: 375, height: 800 });
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(`/fundraiser/${fundraiser.id}`);
    // The landing's script puts the widget's frame in once it is live.
    await page.locator('iframe[title="Donation widget"]').waitFor();
    await page.waitForSelector('html[data-analytics-live]');
    // React marks every element it hydrated with a property of its own.
    const hydrated = (element: Locator) =>
      element.evaluate((node) => Object.keys(node).some((key) => key.startsWith('__reactFiber$')));
    const menuButton = page.getByRole('button', { name: 'Open menu' });
    expect(await hydrated(page.getByRole('heading', { name: 'Make a Donation' }))).toBe(false);
    expect(await hydrated(menuButton)).toBe(false);
    expect(scripts.filter((script) => /\/(react-dom|landing-layout)-/.test(script))).toEqual([]);
    expect(await page.getByTestId('donation-share').textContent()).toContain(
      'through the processor below, less any processing fee it charges. Pick an amount below.',
    );

    // The first tap loads the layout and opens the menu as a live page's tap does.
    await menuButton.click();
    await page.getByRole('navigation', { name: 'Mobile menu' }).getByRole('link', { name: 'Shop' }).waitFor();
    expect(await hydrated(page.getByRole('button', { name: 'Close menu' }))).toBe(true);
    // The owner's figures are an island of that layout, empty for anyone else; the card stays as it was.
    expect(await page.locator('[data-island="owner-stats"]').evaluate((node) => node.childElementCount)).toBe(0);
    expect(await hydrated(page.getByRole('heading', { name: 'Make a Donation' }))).toBe(false);
    expect(
      await hydrated(page.getByRole('heading', { name: "Plot twist: you just scanned a stranger's shirt." })),
    ).toBe(false);
    await page.getByRole('button', { name: 'Close menu' }).click();
    await page.getByRole('navigation', { name: 'Mobile menu' }).getByRole('link', { name: 'Shop' }).waitFor({
      state: 'detached',
    });
    expect(errors).toEqual([]);
  });

  it('opens the cache panel on the landing with Ctrl+Shift+C before its layout is there', async () => {
    const { page, errors } = await watchedPage(await newContext());
    await page.goto(`/fundraiser/${fundraiser.id}`);
    await page.waitForSelector('html[data-analytics-live]');
    await page.keyboard.press('Control+Shift+C');
    const panel = page.getByTestId('cache-panel');
    await panel.waitFor();
    // The landing's script keeps the charity, and warms the cache with the lists about 2 s in.
    await panel.getByText(`charity_${fundraiser.charityId}`).waitFor();
    await panel.getByText('shirts_all').waitFor();
    await panel.getByText('charities_all').waitFor();
    await page.keyboard.press('Control+Shift+C');
    await panel.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('sizes the donation frame to its widget on a phone: nothing of the widget is cut off', async () => {
    for (const width of [320, 390, 414]) {
      const context = await newContext({ userAgent: PHONE_USER_AGENT, viewport: { width, height: 800 } });
      const { page, errors } = await watchedPage(context);
      await page.goto(`/fundraiser/${fundraiser.id}`);
      // Lazy: the frame loads once it is near the screen.
      await page.locator('iframe[title="Donation widget"]').scrollIntoViewIfNeeded();
      const widget = page.frameLocator('iframe[title="Donation widget"]');
      await widget.getByRole('button', { name: 'Donate (demo)' }).waitFor();
      // The widget's document fits its frame: nothing of it lies below the frame's edge, to scroll to.
      const fits = await waitFor(
        `the widget whole inside its frame at ${width} px`,
        () => widget.locator('html').evaluate(() => document.documentElement.scrollHeight <= window.innerHeight),
        (whole) => whole,
      );
      expect(fits).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it("opens the page from the QR code's short link and raises Total Scans by exactly one", async () => {
    const ownerView = await watchedPage(await newContext());
    await signIn(ownerView.page, owner.email, owner.password);
    await ownerView.page.goto(`/fundraiser/${fundraiser.id}`);
    const before = await figure(ownerView.page, 'total-scans');
    const link = new URL(await readQrCode(ownerView.page, fundraiser.id));
    expect(link.pathname).toMatch(/^\/q\/[a-z2-9]{8}$/);

    // Another phone than the other tests' scanner, which counts once per 30 minutes.
    const scanner = await watchedPage(await newContext({ userAgent: ANOTHER_PHONE }));
    const scans = watchScans(scanner.page);
    // The code's own host is PUBLIC_BASE_URL; this app runs on a port of its own.
    await scanner.page.goto(link.pathname);
    await scanner.page.getByRole('heading', { name: 'About This Cause' }).waitFor();
    await scanner.page.waitForURL((url) => url.pathname === `/fundraiser/${fundraiser.id}` && url.search === '');
    await scanner.page.locator('iframe[title="Donation widget"]').waitFor();
    await scans.answered();
    expect(scans.sent()).toBe(1);
    await reloadUntil(ownerView.page, 'total-scans', before + 1);
    // Every scan the short link led to is projected by now: the figure is final.
    await projectedUpToNow(appUrl, admin, 'fundraisers');
    await ownerView.page.reload();
    expect(await figure(ownerView.page, 'total-scans')).toBe(before + 1);
    expect(ownerView.errors).toEqual([]);
    expect(scanner.errors).toEqual([]);
  });

  it("thanks the donor, and raises the owner's Total Raised, labelled as test money, by the amount once the demo processor confirmed it, without a reload", async () => {
    const { page, errors } = await watchedPage(await newContext());
    await signIn(page, owner.email, owner.password);
    await page.goto(`/fundraiser/${fundraiser.id}`);
    const before = await figure(page, 'total-raised');
    // The app runs in demo mode (no live processor): Total Raised is the test money, and says so.
    const label = page.getByRole('region', { name: 'Impact Stats' }).getByTestId('demo-money-label');
    expect(await label.textContent()).toBe('Demo: no real money');
    const statsBefore = await ownerStats(appUrl, fundraiser.id, owner.session);
    expect(statsBefore.testAmountRaised).toBe(before);
    await markPage(page);

    const widget = page.frameLocator('iframe[title="Donation widget"]');
    await widget.getByText('Demo widget:').waitFor();
    await widget.getByRole('radio', { name: '$25' }).check();
    await widget.getByRole('button', { name: 'Donate (demo)' }).click();

    const thanks = page.getByTestId('donation-thanks');
    await thanks.waitFor();
    expect(await thanks.textContent()).toContain('Your $25.00 gift');
    // The live figures bring the processor's confirmation to the open page.
    await page.waitForFunction(
      (expected) => document.querySelector('[data-testid="total-raised"]')?.textContent === expected,
      `$${(before + 25).toFixed(2)}`,
    );
    expect(await stillTheSamePage(page)).toBe(true);
    // Confirmed, not merely reported: counted once as test money, never as money raised, nothing
    // left awaiting confirmation.
    const after = await ownerStatsUntil(
      appUrl,
      fundraiser.id,
      owner.session,
      (stats) => stats.amountReported === statsBefore.amountReported,
    );
    expect(after).toMatchObject({
      donations: statsBefore.donations,
      amountRaised: statsBefore.amountRaised,
      testDonations: statsBefore.testDonations + 1,
      testAmountRaised: statsBefore.testAmountRaised + 25,
      amountReported: statsBefore.amountReported,
    });
    await page.getByTestId('awaiting-confirmation').waitFor({ state: 'detached' });
    expect(await figure(page, 'total-raised')).toBe(before + 25);
    const widgetFrame = page.frames().find((frame) => frame.url().includes('/widget/demo-donation.html'))!;
    expect(await seriousViolations(widgetFrame)).toEqual([]);
    expect(await checkScreen(page, 'qr-landing-owner')).toEqual([]);

    // The thank-you leaves by itself (after 5 s: qr-landing.test.tsx holds it to that, on a test
    // clock); the server's own figure agrees with what was shown.
    await thanks.waitFor({ state: 'detached' });
    await reloadUntil(page, 'total-raised', before + 25);
    expect(errors).toEqual([]);
  });

  it('shows a report nobody confirmed beside Total Raised, never in it', async () => {
    const { page, errors } = await watchedPage(await newContext());
    await signIn(page, owner.email, owner.password);
    await page.goto(`/fundraiser/${fundraiser.id}`);
    const before = await figure(page, 'total-raised');
    await markPage(page);
    // What anyone can send: a report no processor will confirm.
    const forged = await fetch(`${appUrl}/api/fundraisers/${fundraiser.id}/donate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ amount: 1000 }),
    });
    expect(forged.status).toBe(201);
    await page.getByTestId('awaiting-confirmation').waitFor();
    expect(await page.getByTestId('awaiting-confirmation').textContent()).toContain('$1,000.00 awaiting confirmation');
    expect(await figure(page, 'total-raised')).toBe(before);
    expect(await stillTheSamePage(page)).toBe(true);
    expect(errors).toEqual([]);
  });

  it("answers a short link nobody holds with 404 and the QR page's Fundraiser not found", async () => {
    const { page, errors } = await watchedPage(await newContext({ userAgent: PHONE_USER_AGENT }));
    const answer = await page.goto('/q/zzzzzzzz');
    expect(answer?.status()).toBe(404);
    await page.getByText('Fundraiser not found').waitFor();
    // Try Again is a form to this address, which works whether the page is live or not.
    await markPage(page);
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Try Again' }).click()]);
    expect(await stillTheSamePage(page)).toBe(false);
    await page.getByText('Fundraiser not found').waitFor();
    // The page's own status, which chromium reports as an error (the form's GET ends the address
    // with an empty query): nothing else may fail.
    expect(errors.filter((error) => !/status of 404 .*\/q\/zzzzzzzz\??\)$/.test(error))).toEqual([]);
  });

  it("shows the owner's shirt on the dashboard with its QR code and downloads", async () => {
    const { page, errors } = await watchedPage(await newContext());
    await signIn(page, owner.email, owner.password);
    const shirt = page.getByTestId('owned-shirt');
    await shirt.waitFor();
    expect(await shirt.getByRole('link', { name: 'View QR Page' }).getAttribute('href')).toBe(
      `/fundraiser/${fundraiser.id}`,
    );
    const qr = shirt.getByRole('img', { name: /QR code for/ });
    await page.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>('[data-testid="owned-shirt"] img');
      return image?.complete && image.naturalWidth > 0;
    });
    expect(await qr.getAttribute('src')).toBe(`/api/fundraisers/${fundraiser.id}/qr.svg`);
    for (const [name, type] of [
      ['Download PNG', 'image/png'],
      ['Download SVG', 'image/svg+xml'],
    ] as const) {
      const href = await shirt.getByRole('link', { name }).getAttribute('href');
      const answer = await fetch(`${appUrl}${href}`);
      expect({ name, status: answer.status, type: answer.headers.get('content-type')?.split(';')[0] }).toEqual({
        name,
        status: 200,
        type,
      });
    }
    await page.getByRole('heading', { name: 'Scans and donations per day' }).waitFor();
    await page.locator('.recharts-surface').first().waitFor();
    expect(await checkScreen(page, 'dashboard')).toEqual([]);
    expect(errors).toEqual([]);
  });
});
