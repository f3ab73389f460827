import { authSession, type AuthSession, charityList, fundraiser, type Fundraiser, shirtList } from '@qrshirt/contracts';

/** A fresh account through the auth API, as the sign-up form would create it. */
export async function signUpThroughApi(
  appUrl: string,
  name: string,
): Promise<{ email: string; password: string; session: AuthSession }> {
  const email = `${name.toLowerCase()}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'correct horse battery';
  const answer = await fetch(`${appUrl}/api/auth/signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password, displayName: name }),
  });
  if (answer.status !== 201) throw new Error(`sign-up answered ${answer.status}: ${await answer.text()}`);
  return { email, password, session: authSession.parse(await answer.json()) };
}

/** The owner's fundraiser for the first seeded shirt and charity (no screen creates one). */
export async function createFundraiser(appUrl: string, session: AuthSession): Promise<Fundraiser> {
  const [shirts, charities] = await Promise.all([
    fetch(`${appUrl}/api/shirts`).then(async (answer) => shirtList.parse(await answer.json())),
    fetch(`${appUrl}/api/charities`).then(async (answer) => charityList.parse(await answer.json())),
  ]);
  const answer = await fetch(`${appUrl}/api/fundraisers`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${session.accessToken}`,
      'x-user-id': session.user.uid,
    },
    body: JSON.stringify({ shirtId: shirts[0]!.id, charityId: charities[0]!.id }),
  });
  if (answer.status !== 201)
    throw new Error(`creating the fundraiser answered ${answer.status}: ${await answer.text()}`);
  return fundraiser.parse(await answer.json());
}
