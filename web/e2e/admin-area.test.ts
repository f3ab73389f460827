import { readFile } from 'node:fs/promises';
import { shirtList } from '@qrshirt/contracts';
import { solveProofOfWork } from '@qrshirt/test-support';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { signUpThroughApi } from './support/accounts';
import { adminAccount, signInWithForm } from './support/admin';
import { checkScreen, watchedPage } from './support/browser';
import { describeInBrowser } from './support/describe-in-browser';

/** The charities the shirt page offers, as its selector lists them. */
async function charityOptions(page: Page): Promise<string[]> {
  const selector = page.getByRole('combobox', { name: 'Choose a charity to support' });
  await selector.click();
  await page.getByRole('option').first().waitFor();
  const names = await page.getByRole('option').allTextContents();
  await page.keyboard.press('Escape');
  return names;
}

describeInBrowser('the admin area', ({ appUrl, appDataDir, newContext }) => {
  let admin: Awaited<ReturnType<typeof adminAccount>>;
  let shirtId: string;

  beforeAll(async () => {
    admin = await adminAccount(appUrl, appDataDir);
    shirtId = shirtList.parse(await (await fetch(`${appUrl}/api/shirts`)).json())[0]!.id;
  });

  it("lets an admin create a charity that the shop's charity selector then offers", async () => {
    const { page, errors } = await watchedPage(await newContext());
    await signInWithForm(page, admin.email, admin.password);
    // The shop has cached its charity list in this browser (spec: 30 minutes) before the change.
    await page.goto(`/shirt/${shirtId}`);
    const before = await charityOptions(page);
    const name = `Bees Please ${Date.now()}`;
    expect(before).not.toContain(name);

    await page.getByRole('link', { name: 'Admin', exact: true }).first().click();
    await page.waitForURL('**/admin');
    await page.getByTestId('total-scans').waitFor();
    expect(await checkScreen(page, 'admin-overview')).toEqual([]);

    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Charities' }).click();
    await page.getByRole('heading', { name: 'Charities' }).waitFor();
    await page.getByRole('button', { name: 'New charity' }).click();
    const form = page.getByRole('form', { name: 'New charity' });
    await form.getByLabel('Name', { exact: true }).fill(name);
    await form.getByLabel('Mission').fill('Keeps city bees fed through the winter.');
    await form.getByLabel('Website').fill('not a web address');
    await form.getByRole('button', { name: 'Create charity' }).click();
    // The server's validation, beside the field it concerns.
    await form.getByText('Website must be an https:// address, like https://example.org').waitFor();
    await form.getByLabel('Website').fill('https://bees.example.org');
    await form.getByLabel('Tax id (EIN)').fill('12-3456789');
    await form.getByRole('button', { name: 'Create charity' }).click();
    await page.locator('.mantine-Notification-title', { hasText: 'Charity created' }).waitFor();
    // What its donors' receipts will name, which only admins see.
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
    await row.getByText('EIN 12-3456789').waitFor();
    expect(await checkScreen(page, 'admin-charities')).toEqual([]);

    // Back to the shop in the same tab, no reload: the selector offers the new charity.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('link', { name: 'Shop', exact: true }).first().click();
    await page.getByTestId('shirt-card').first().click();
    await page.getByRole('heading', { name: 'Join the Waitlist' }).waitFor();
    expect(await charityOptions(page)).toContain(name);
    // The browser logs the refused first attempt (400); it is the answer the form showed.
    expect(errors.filter((error) => !/status of 400 .*\/api\/admin\/charities\)$/.test(error))).toEqual([]);
  });

  it('shows the waitlist, rebuilds a projection, browses events and downloads the replay', async () => {
    const [shirt] = shirtList.parse(await (await fetch(`${appUrl}/api/shirts`)).json());
    const joined = await fetch(`${appUrl}/api/waitlist`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Altcha': await solveProofOfWork(appUrl) },
      body: JSON.stringify({
        name: 'Wanda Waitlist',
        email: 'wanda@example.com',
        selectedSize: shirt!.sizes[0],
        selectedCharity: 'givedirectly',
        shirtId: shirt!.id,
      }),
    });
    expect(joined.status).toBe(201);
    const { page, errors } = await watchedPage(await newContext());
    await signInWithForm(page, admin.email, admin.password);
    const sections = page.getByRole('navigation', { name: 'Admin sections' });
    const open = async (section: string, heading: string) => {
      await sections.getByRole('link', { name: section }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    };
    await page.goto('/admin');

    await open('Shirts', 'Shirts');
    await page
      .getByRole('button', { name: /^Edit / })
      .first()
      .click();
    await page
      .getByRole('form', { name: /^Edit / })
      .getByLabel('Price')
      .waitFor();
    expect(await checkScreen(page, 'admin-shirt-form')).toEqual([]);
    await page.keyboard.press('Escape');

    await open('Waitlist', 'Waitlist');
    await page.getByRole('cell', { name: 'Wanda Waitlist', exact: true }).waitFor();
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(csv.suggestedFilename()).toMatch(/^waitlist-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(await readFile(await csv.path(), 'utf8')).toContain(`Wanda Waitlist,wanda@example.com,${shirt!.sizes[0]},`);
    expect(await checkScreen(page, 'admin-waitlist')).toEqual([]);

    await page.setViewportSize({ width: 1280, height: 900 });
    await open('Projections', 'Projections');
    await page.getByRole('button', { name: 'Rebuild catalog' }).click();
    await page
      .getByTestId('rebuild-catalog')
      .getByText(/^Rebuilt to version \d+/)
      .waitFor();
    expect(await checkScreen(page, 'admin-projections')).toEqual([]);

    await page.setViewportSize({ width: 1280, height: 900 });
    await open('Event browser', 'Event browser');
    await page.getByLabel('Stream prefix').fill('user-');
    await page.getByRole('button', { name: 'Apply' }).click();
    const registered = page
      .getByTestId('admin-event')
      .filter({ hasText: 'UserRegistered' })
      .filter({ hasText: `user-${admin.session.user.uid}@` });
    await registered.getByRole('button').click();
    await registered.getByText('"displayName"').waitFor();
    // Masked until asked for: the admin's own address shows once revealed, in the event left open.
    expect(await registered.getByText(admin.email).count()).toBe(0);
    await page.getByLabel('Reveal personal data (names and emails)').check({ force: true });
    await registered.getByText(admin.email).waitFor();
    expect(await checkScreen(page, 'admin-events')).toEqual([]);

    await page.setViewportSize({ width: 1280, height: 900 });
    await open('Replay export', 'Replay export');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^donations-by-day-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = await readFile(await download.path(), 'utf8');
    expect(text.split('\r\n')[0]).toBe(
      'day,scans,donations,gross,refunds,disputes,amountRaised,fees,platformFees,net,fundraisers',
    );
    expect(await checkScreen(page, 'admin-replay')).toEqual([]);

    await open('Reconcile', 'Reconcile');
    await page.getByLabel('From (UTC day)').fill('2026-03-01');
    await page.getByLabel('To (UTC day)').fill('2026-03-31');
    await page.getByRole('button', { name: 'Compare with Stripe' }).click();
    // This app takes no card donations: the gateway's 503, in its own words.
    await page.getByText('Reconciling needs Stripe, which is not configured here (STRIPE_SECRET_KEY)').waitFor();
    expect(await checkScreen(page, 'admin-reconcile')).toEqual([]);

    // Each look at names and emails in clear, and each download, is on the audit trail, newest first.
    await open('Audit trail', 'Audit trail');
    const audited = page.getByTestId('audit-entry');
    await audited.first().getByText('Downloaded the replay export').waitFor();
    const actions = await audited.getByRole('cell', { name: /^(Revealed|Viewed|Downloaded) / }).allTextContents();
    expect(actions.slice(0, 2)).toEqual([
      'Downloaded the replay export',
      'Revealed names and emails in the event browser',
    ]);
    expect(actions).toContain('Downloaded the waitlist CSV');
    expect(actions).toContain('Viewed waitlist entries');
    expect(await audited.first().getByText(admin.session.user.uid).count()).toBe(1);
    // Off the section's link: an active link under the pointer takes a hover shade its text lacks contrast on.
    await page.mouse.move(0, 0);
    expect(await checkScreen(page, 'admin-audit')).toEqual([]);
    // The one failure asked for: reconciling without Stripe.
    expect(errors.filter((error) => !/status of 503 .*\/api\/admin\/reconcile\?/.test(error))).toEqual([]);
  });

  it('is neither offered nor open to a signed-in user who is not an admin', async () => {
    const member = await signUpThroughApi(appUrl, 'Mia');
    const { page, errors } = await watchedPage(await newContext());
    await signInWithForm(page, member.email, member.password);
    await page.getByRole('heading', { name: 'Welcome back, Mia!' }).waitFor();
    // Her unverified address's banner and the Admin link come from the same answer (GET /api/me).
    await page.getByTestId('verify-email-banner').waitFor();
    expect(await page.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);

    await page.goto('/admin/charities');
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Admin sections' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
