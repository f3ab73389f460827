import type { AuthSession, Fundraiser } from '@qrshirt/contracts';
import { as, createApiClient, createFundraiser as createThroughApi, signUp } from '@qrshirt/test-support';

/** A fresh account through the auth API, as the sign-up form would create it. */
export async function signUpThroughApi(
  appUrl: string,
  name: string,
): Promise<{ email: string; password: string; session: AuthSession }> {
  const email = `${name.toLowerCase()}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'correct horse battery';
  const session = await signUp(createApiClient(appUrl), { email, password, displayName: name });
  return { email, password, session };
}

/** The owner's fundraiser for the first seeded shirt and charity (no screen creates one). */
export function createFundraiser(appUrl: string, session: AuthSession): Promise<Fundraiser> {
  return createThroughApi(createApiClient(appUrl), as(session));
}
