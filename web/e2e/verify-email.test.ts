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

    // The mail the product wrote (no SMTP_URL: an .eml file in its data folder), as Grace reads it:
    // it names the account that asked.
    const mail = await latestMail(appDataDir, email, 2);
    expect(mail.text).toContain('Account Grace asked to use this address on QR Shirts.');
    const link = /https?:\/\/\S+\/verify-email#token=[\w-]+/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeDefined();
    const linkPath = new URL(link!).pathname + new URL(link!).hash;

    // Opened in another browser, signed out, as from a phone's mail app: the page says what the
    // link does and who asked, and asks to sign in to that account before anything happens.
    const phone = await watchedPage(await newContext());
    await phone.page.goto(linkPath);
    await phone.page.getByText(`Account Grace asked to use ${email}`).waitFor();
    await phone.page.getByText(/^Sign in to that account to confirm\./).waitFor();
    // The token does not stay in the address bar or the history.
    expect(new URL(phone.page.url()).hash).toBe('');
    expect(await checkScreen(phone.page, 'verify-email-sign-in')).toEqual([]);
    const form = phone.page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password', { exact: true }).fill('compiler compiler');
    await form.getByRole('button', { name: 'Sign In', exact: true }).click();
    // Signed in as the asking account, on the same page: nothing happened yet, it asks to confirm.
    await phone.page.getByRole('button', { name: 'Confirm my address' }).click();
    await phone.page.getByText(`Your email address is verified: ${email}`).waitFor();
    expect(await checkScreen(phone.page, 'verify-email')).toEqual([]);
    await phone.page.getByRole('link', { name: 'Go to your dashboard' }).click();
    await phone.page.getByRole('heading', { name: 'Welcome back, Grace!' }).waitFor();
    // It may still show from what the page knew before the link, until `me` answers again: it must go.
    await phone.page.getByTestId('verify-email-banner').waitFor({ state: 'detached' });
    expect(phone.errors).toEqual([]);

    // The first browser, reloaded, knows the address is verified; and the link works once.
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Welcome back, Grace!' }).waitFor();
    await page.getByText('No shirts yet').waitFor();
    await banner.waitFor({ state: 'detached' });
    await page.goto(linkPath);
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
    await page.getByText(`Account Hopper asked to use ${newEmail}`).waitFor();
    await page.getByRole('button', { name: 'Use this address' }).click();
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
