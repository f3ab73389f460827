import { expect, it } from 'vitest';
import { latestMail, tokenIn } from '@qrshirt/test-support';
import { signUpThroughApi } from './support/accounts';
import { watchedPage } from './support/browser';
import { describeInBrowser } from './support/describe-in-browser';

describeInBrowser('resetting a forgotten password', ({ appUrl, appDataDir, newContext }) => {
  it('asks for a link (the proof-of-work widget solving in the page), follows it, and signs in with the new password', async () => {
    const { email } = await signUpThroughApi(appUrl, 'Forgetful');
    const { page, errors } = await watchedPage(await newContext());
    await page.goto('/signin');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByText(`If an account exists for ${email}, a link to reset its password is on its way.`).waitFor();

    // The sign-up's verification mail first, then the reset link.
    const mail = await latestMail(appDataDir, email, 2);
    expect(mail.subject).toBe('Reset your QR Shirts password');
    // The link opens in a tab of its own, as from a mail reader.
    await page.close();
    const { page: linkPage, errors: linkErrors } = await watchedPage(await newContext());
    await linkPage.goto(`/signin#reset=${tokenIn(mail, 'signin', 'reset')}`);
    await linkPage.getByLabel('New Password', { exact: true }).fill('a brand new password');
    await linkPage.getByLabel('Confirm Password', { exact: true }).fill('a brand new password');
    await linkPage.getByRole('button', { name: 'Save Password' }).click();
    await linkPage.getByText('Your password has been changed. You can sign in with it now.').waitFor();
    await linkPage.getByRole('button', { name: 'Go to Sign In' }).click();

    await linkPage.getByLabel('Email').fill(email);
    await linkPage.getByLabel('Password', { exact: true }).fill('a brand new password');
    await linkPage.getByRole('button', { name: 'Sign In', exact: true }).click();
    await linkPage.waitForURL('**/dashboard');
    await linkPage.getByRole('heading', { name: 'Welcome back, Forgetful!' }).waitFor();
    expect([...errors, ...linkErrors]).toEqual([]);
  });
});
