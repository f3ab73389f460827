import { type AuthSession, authSession, charityList, type Fundraiser, fundraiser, shirtList } from '@qrshirt/contracts';
import type { ApiClient, RequestOptions } from './api-client';

let counter = 0;
/** An address no other test uses, in a case the server must not care about. */
export const uniqueEmail = (name = 'user') => `${name}.${process.pid}.${Date.now()}.${++counter}@Example.com`;

let clients = 0;
/**
 * Another client address (TEST-NET-3, in X-Forwarded-For, which the default TRUST_PROXY believes
 * from loopback): sign-ups and mails are limited per address, and tests of other rules make many.
 */
export const newClient = () => ({ 'x-forwarded-for': `203.0.113.${(++clients % 250) + 1}` });

/** A new account through the API, as the sign-up form creates one; its session holds an access token. */
export async function signUp(
  api: ApiClient,
  body: { email?: string; password?: string; displayName?: string } = {},
): Promise<AuthSession> {
  const answer = await api('POST', '/api/auth/signup', {
    body: { email: uniqueEmail(), password: 'correct horse', displayName: 'Ada', ...body },
    headers: newClient(),
  });
  if (answer.status !== 201) throw new Error(`sign-up answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return authSession.parse(answer.body);
}

/** The headers the spec's client sends with a session. */
export const as = (session: { accessToken: string; user: { uid: string; anonymous: boolean } }) => ({
  token: session.accessToken,
  headers: { 'x-user-id': session.user.uid, ...(session.user.anonymous && { 'x-anonymous': 'true' }) },
});

/** The owner's fundraiser, for the first seeded shirt and charity unless `fields` names others. */
export async function createFundraiser(
  api: ApiClient,
  owner: RequestOptions,
  fields: { name?: string; shirtId?: string; charityId?: string } = {},
): Promise<Fundraiser & { userId: string }> {
  const [shirts, charities] = await Promise.all([api('GET', '/api/shirts'), api('GET', '/api/charities')]);
  const [firstShirt] = shirtList.parse(shirts.body);
  const [firstCharity] = charityList.parse(charities.body);
  const answer = await api('POST', '/api/fundraisers', {
    ...owner,
    body: { shirtId: firstShirt?.id, charityId: firstCharity?.id, ...fields },
  });
  if (answer.status !== 201) throw new Error(`fundraiser not created: ${answer.status} ${JSON.stringify(answer.body)}`);
  const created = fundraiser.parse(answer.body);
  // A member's own fundraiser is theirs from the start (only an operator's waits to be claimed).
  if (created.userId === null) throw new Error(`fundraiser created without an owner: ${JSON.stringify(created)}`);
  return { ...created, userId: created.userId };
}
