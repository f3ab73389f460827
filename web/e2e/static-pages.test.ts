import { expect, it } from 'vitest';
import { checkScreen, watchedPage } from './support/browser';
import { describeInBrowser } from './support/describe-in-browser';

describeInBrowser('the static pages and the cache panel', ({ newContext }) => {
  it('shows Page Not Found for an unknown address, logs the path and leads home', async () => {
    const { page, errors, warnings } = await watchedPage(await newContext());
    const answer = await page.goto('/no/such/page');
    expect(answer?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    // Logged by an effect, which may run after the heading showed.
    await expect.poll(() => warnings.some((warning) => warning.includes('/no/such/page'))).toBe(true);
    expect(await checkScreen(page, 'not-found')).toEqual([]);
    await page.getByRole('link', { name: 'Go Home' }).click();
    await page.getByRole('heading', { name: 'How It Works' }).waitFor();
    expect(errors).toEqual([]);
  });

  it("shows the privacy policy's 14 numbered sections, dated today", async () => {
    const { page, errors } = await watchedPage(await newContext());
    await page.goto('/privacy');
    await page.getByRole('heading', { name: 'Privacy Policy', level: 1 }).waitFor();
    const headings = await page.getByTestId('privacy-section').getByRole('heading').allTextContents();
    expect(headings).toHaveLength(14);
    expect(headings.map((heading) => Number.parseInt(heading, 10))).toEqual(
      Array.from({ length: 14 }, (_, index) => index + 1),
    );
    const today = await page.evaluate(() =>
      new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' }),
    );
    await page.getByText(`Last updated: ${today}`).waitFor();
    expect(await page.locator('main a[href^="mailto:"]').count()).toBeGreaterThan(0);
    expect(await checkScreen(page, 'privacy')).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('toggles the hidden cache panel with Ctrl+Shift+C, listing what the warm-up cached', async () => {
    const { page, errors } = await watchedPage(await newContext());
    await page.goto('/privacy');
    await page.getByRole('heading', { name: 'Privacy Policy', level: 1 }).waitFor();
    expect(await page.getByTestId('cache-panel').count()).toBe(0);
    await page.keyboard.press('Control+Shift+C');
    const panel = page.getByTestId('cache-panel');
    await panel.waitFor();
    // About 2 s after the load the shirts and charities are cached; the panel refreshes every 2 s.
    await panel.getByText('shirts_all').waitFor();
    await panel.getByText('charities_all').waitFor();
    await page.keyboard.press('Control+Shift+C');
    await panel.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });
});
