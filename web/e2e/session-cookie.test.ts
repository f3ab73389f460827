import { REFRESH_COOKIE } from '@qrshirt/contracts';
import { createApiClient } from '@qrshirt/test-support';
import { expect, it } from 'vitest';
import { signUpThroughApi } from './support/accounts';
import { signInWithForm } from './support/admin';
import { watchedPage } from './support/browser';
import { describeInBrowser } from './support/describe-in-browser';

describeInBrowser('the session, kept in an HttpOnly cookie', ({ appUrl, newContext }) => {
  it('stays signed in across reloads with nothing of it readable by the page, and ends at sign-out', async () => {
    const { email, password } = await signUpThroughApi(appUrl, 'Rosalind');
    const context = await newContext();
    const { page, errors } = await watchedPage(context);
    const refreshCookie = async () => (await context.cookies()).find((cookie) => cookie.name === REFRESH_COOKIE);

    await signInWithForm(page, email, password);
    await page.getByRole('heading', { name: 'Welcome back, Rosalind!' }).waitFor();
    const signedIn = await refreshCookie();
    // Over plain http on 127.0.0.1, as `npm start` serves: browsers keep Secure cookies there.
    expect(signedIn).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/api/auth' });

    await page.reload();
    await page.getByRole('heading', { name: 'Welcome back, Rosalind!' }).waitFor();
    const renewed = await refreshCookie();
    expect(renewed!.value).not.toBe(signedIn!.value);

    // What a script injected into the page could read: storage of either kind, and document.cookie.
    const readable = await page.evaluate(() => ({
      storage: JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage)]),
      cookies: document.cookie,
    }));
    for (const token of [signedIn!.value, renewed!.value]) {
      for (const part of token.split('.')) expect(readable.storage).not.toContain(part);
    }
    expect(readable.storage).not.toContain('qrshirt_refresh_token');
    expect(readable.cookies).not.toContain(REFRESH_COOKIE);

    await page.getByRole('button', { name: 'Sign Out' }).first().click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('link', { name: 'Sign In' }).first().waitFor();
    await page.reload();
    await page.getByRole('link', { name: 'Sign In' }).first().waitFor();
    await page.goto('/dashboard');
    await page.waitForURL('**/signin');
    // The signed-in session is over for good: its last cookie refreshes nothing.
    const replayed = await createApiClient(appUrl)('POST', '/api/auth/refresh', {
      headers: { cookie: `${REFRESH_COOKIE}=${renewed!.value}` },
    });
    expect(replayed.status).toBe(401);
    expect(errors).toEqual([]);
  });
});
