import { adminProjections, authSession, type AuthSession } from '@qrshirt/contracts';
import type { Page } from 'playwright-core';
import { latestMail, solveProofOfWork, tokenIn, waitFor } from '@qrshirt/test-support';

/** The app under test runs with ADMIN_EMAILS set to this address (app-process.ts). */
export const E2E_ADMIN_EMAIL = 'admin@e2e.example.com';
const ADMIN_PASSWORD = 'correct horse battery';

async function post(
  appUrl: string,
  path: string,
  body: object,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${appUrl}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/**
 * The admin's account, signed up through the auth API the first time a test asks and verified
 * through the link mailed to it (holding the address and having proved it is what makes the
 * ADMIN_EMAILS entry count), signed in after that.
 */
export async function adminAccount(
  appUrl: string,
  appDataDir: string,
): Promise<{ email: string; password: string; session: AuthSession }> {
  let answer = await post(
    appUrl,
    '/api/auth/signup',
    { email: E2E_ADMIN_EMAIL, password: ADMIN_PASSWORD, displayName: 'Olga Ops' },
    { 'X-Altcha': await solveProofOfWork(appUrl) },
  );
  if (answer.status === 201) {
    const { accessToken } = authSession.parse(await answer.clone().json());
    const token = tokenIn(await latestMail(appDataDir, E2E_ADMIN_EMAIL), 'verify-email');
    // The link acts only for the account that asked for it, signed in.
    const verified = await post(
      appUrl,
      '/api/auth/verify-email',
      { token },
      { Authorization: `Bearer ${accessToken}` },
    );
    if (!verified.ok)
      throw new Error(`the admin's address was not verified: ${verified.status} ${await verified.text()}`);
  }
  if (answer.status === 409)
    answer = await post(appUrl, '/api/auth/signin', { email: E2E_ADMIN_EMAIL, password: ADMIN_PASSWORD });
  if (!answer.ok) throw new Error(`the admin could not sign up or in: ${answer.status} ${await answer.text()}`);
  return { email: E2E_ADMIN_EMAIL, password: ADMIN_PASSWORD, session: authSession.parse(await answer.json()) };
}

/**
 * Through the sign-in form, as a person would; it lands on the dashboard. `appUrl` names a second
 * app a test started itself (the page's base address is the shared one's).
 */
export async function signInWithForm(page: Page, email: string, password: string, appUrl = ''): Promise<void> {
  await page.goto(`${appUrl}/signin`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL('**/dashboard');
}

/**
 * Resolves once `projection` has handled every event of its types that the log held when this was
 * called: what was appended before shows in its read model, so a figure read after it is final.
 * The positive marker a test needs to say something was *not* counted.
 */
export async function projectedUpToNow(appUrl: string, admin: AuthSession, projection: string): Promise<void> {
  const status = async () => {
    const answer = await fetch(`${appUrl}/api/admin/projections`, {
      headers: { Authorization: `Bearer ${admin.accessToken}`, 'x-user-id': admin.user.uid },
    });
    if (answer.status !== 200) throw new Error(`the projections answered ${answer.status}: ${await answer.text()}`);
    return adminProjections.parse(await answer.json()).projections.find(({ name }) => name === projection);
  };
  // The lag is counted against the head of the log at each answer, which is past the events before the call.
  await waitFor(`the ${projection} projection to catch up`, status, (found) => found?.lagEvents === 0);
}
