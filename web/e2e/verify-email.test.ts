import { expect, it } from 'vitest';
import { latestMail } from '@qrshirt/test-support';
import { checkScreen, watchedPage } from './support/browser';
import { describeInBrowser } from './support/describe-in-browser';

describeInBrowser('verifying an email address', ({ appDataDir, newContext }) => {
  it('follows the link from the sign-up mail, and the dashboard banner goes', async () => {
    const { page, errors } = await watchedPage(await newContext());
    const email = `grace-${Date.now()}@example.com`;
    await page.goto('/signin');
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await page.getByLabel('Display Name').fill('Grace');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('compiler compiler');
    await page.getByLabel('Confirm Password').fill('compiler compiler');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL('**/dashboard');
    const banner = page.getByTestId('verify-email-banner');
    await banner.getByText('Please verify your email address').waitFor();
    expect(await banner.textContent()).toContain(email);
    expect(await checkScreen(page, 'dashboard-unverified')).toEqual([]);

    // The banner's Resend link: the proof-of-work widget solves in the page, then a second mail goes.
    await latestMail(appDataDir, email);
    await banner.getByRole('button', { name: 'Resend link' }).click();
    await page.getByText('A new link is on its way').waitFor();

    // The mail the product wrote (no SMTP_URL: an .eml file in its data folder), as Grace reads it.
    const mail = await latestMail(appDataDir, email, 2);
    const link = /https?:\/\/\S+\/verify-email#token=[\w-]+/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeDefined();
    await page.goto(new URL(link!).pathname + new URL(link!).hash);
    await page.getByText(`Your email address is verified: ${email}`).waitFor();
    // The token does not stay in the address bar or the history.
    expect(new URL(page.url()).hash).toBe('');
    expect(await checkScreen(page, 'verify-email')).toEqual([]);

    await page.getByRole('link', { name: 'Go to your dashboard' }).click();
    await page.getByRole('heading', { name: 'Welcome back, Grace!' }).waitFor();
    await page.getByText('No shirts yet').waitFor();
    // It may still show from what the page knew before the link, until `me` answers again: it must go.
    await banner.waitFor({ state: 'detached' });

    // The link works once.
    await page.goto(new URL(link!).pathname + new URL(link!).hash);
    await page
      .getByText('This verification link is unknown, used or expired. Ask for a new one from your dashboard.')
      .waitFor();
    expect(errors.filter((error) => !error.includes('400'))).toEqual([]);
  });

  it('changes the address from Edit Profile: the link mailed to the new address moves the account', async () => {
    const { page, errors } = await watchedPage(await newContext());
    const stamp = Date.now();
    const [email, newEmail] = [`hopper-${stamp}@example.com`, `grace.hopper-${stamp}@example.com`];
    await page.goto('/signin');
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await page.getByLabel('Display Name').fill('Hopper');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('compiler compiler');
    await page.getByLabel('Confirm Password').fill('compiler compiler');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL('**/dashboard');

    await page.getByRole('button', { name: 'Edit Profile' }).click();
    const form = page.getByRole('form', { name: 'Change email' });
    await form.getByText(`Your email address is ${email}.`).waitFor();
    await form.getByLabel('New email address').fill(newEmail);
    await form.getByRole('button', { name: 'Send link' }).click();
    await form.getByText(`We sent a link to ${newEmail}. Your address changes once you open it`).waitFor();
    expect(await checkScreen(page, 'edit-profile-change-email')).toEqual([]);

    const mail = await latestMail(appDataDir, newEmail);
    expect(mail.subject).toBe('Confirm your new email address');
    const link = /https?:\/\/\S+\/verify-email#token=[\w-]+&email=\S+/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeDefined();
    await page.goto(new URL(link!).pathname + new URL(link!).hash);
    await page.getByText(`Your email address was changed to ${newEmail}: sign in with it from now on.`).waitFor();
    expect(new URL(page.url()).hash).toBe('');

    // The new address is verified by the link itself, and the dashboard shows it.
    await page.getByRole('link', { name: 'Go to your dashboard' }).click();
    await page.getByRole('heading', { name: 'Welcome back, Hopper!' }).waitFor();
    await page.getByTestId('verify-email-banner').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByRole('form', { name: 'Change email' }).getByText(`Your email address is ${newEmail}.`).waitFor();
    expect(errors).toEqual([]);
  });
});
