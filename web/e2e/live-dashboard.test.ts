import type { AuthSession, Fundraiser } from '@qrshirt/contracts';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { createFundraiser, signUpThroughApi } from './support/accounts';
import { signInWithForm } from './support/admin';
import { watchedPage } from './support/browser';
import { describeInBrowser, PHONE_USER_AGENT } from './support/describe-in-browser';
import { demoDonate } from './support/donations';

async function figure(page: Page, testId: string): Promise<number> {
  const text = await page.getByTestId(testId).first().textContent();
  return Number(text!.replace(/[$,]/g, ''));
}

/** Waits for the figure on the open page to read `expected`, without reloading it. */
async function figureBecomes(page: Page, testId: string, expected: string): Promise<void> {
  await page.waitForFunction(
    ({ id, value }) => document.querySelector(`[data-testid="${id}"]`)?.textContent === value,
    { id: testId, value: expected },
  );
}

/** A mark on the window that a reload would wipe. */
const markPage = (page: Page) => page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));
const stillTheSamePage = (page: Page) => page.evaluate(() => 'stillTheSamePage' in window);

describeInBrowser('live figures', ({ appUrl, newContext }) => {
  let owner: { email: string; password: string; session: AuthSession };
  let fundraiser: Fundraiser;

  beforeAll(async () => {
    owner = await signUpThroughApi(appUrl, 'Lena');
    fundraiser = await createFundraiser(appUrl, owner.session);
  });

  // Each scan from another phone: one phone's scans count once per 30 minutes.
  let phones = 0;
  const scan = async () => {
    const answer = await fetch(`${appUrl}/api/fundraisers/${fundraiser.id}/scan`, {
      method: 'POST',
      headers: { 'user-agent': `${PHONE_USER_AGENT} phone-${++phones}` },
    });
    expect(answer.status).toBeLessThan(300);
  };
  // Through the demo processor: only a donation the processor confirmed moves the figures.
  const donate = (amount: number) => demoDonate(appUrl, fundraiser.id, amount);

  it("moves the open dashboard's QR Scans and Total Impact when a scan and a donation arrive", async () => {
    const { page, errors } = await watchedPage(await newContext());
    await signInWithForm(page, owner.email, owner.password);
    await page.getByTestId('owned-shirt').waitFor();
    const scans = await figure(page, 'stat-qr-scans');
    const impact = await figure(page, 'stat-total-impact');
    await markPage(page);

    await scan();
    await figureBecomes(page, 'stat-qr-scans', String(scans + 1));
    await donate(7.5);
    await figureBecomes(page, 'stat-total-impact', `$${(impact + 7.5).toFixed(2)}`);
    expect(await stillTheSamePage(page)).toBe(true);
    expect(errors).toEqual([]);
  });

  it("moves the owner's Impact Stats on the open QR page when someone scans", async () => {
    const { page, errors } = await watchedPage(await newContext());
    await signInWithForm(page, owner.email, owner.password);
    await page.goto(`/fundraiser/${fundraiser.id}`);
    const scans = await figure(page, 'total-scans');
    await markPage(page);

    await scan();
    await figureBecomes(page, 'total-scans', String(scans + 1));
    expect(await stillTheSamePage(page)).toBe(true);
    expect(errors).toEqual([]);
  });
});
