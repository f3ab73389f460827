import type { Charity, Fundraiser, Shirt } from '@qrshirt/contracts';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { createFundraiser, signUpThroughApi } from './support/accounts';
import { watchedPage } from './support/browser';
import { describeInBrowser } from './support/describe-in-browser';

/** The next document the page loads, which a click is about to cause. */
const nextDocumentLoad = (page: Page) =>
  page.waitForRequest((request) => request.isNavigationRequest() && request.resourceType() === 'document', {
    timeout: 10_000,
  });

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
