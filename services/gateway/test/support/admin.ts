import { as, latestMail, type RequestOptions, signUp, tokenIn } from '@qrshirt/test-support';
import { anonymousToken, startTestServer, type TestServer } from './test-server';

export const ADMIN_EMAIL = 'ops@example.org';

export interface AdminTestServer extends TestServer {
  /** Request options of the admin (signed up with ADMIN_EMAIL, listed in a different case). */
  admin: RequestOptions;
  adminUid: string;
  /** Request options of a signed-in user who is not an admin. */
  member: RequestOptions;
  memberUid: string;
  anonymous: RequestOptions;
}

/** A test server with ADMIN_EMAILS set, an admin (address verified) and an ordinary member signed up. */
export async function startAdminServer(
  options: Pick<NonNullable<Parameters<typeof startTestServer>[0]>, 'env' | 'clock' | 'eventStore'> = {},
): Promise<AdminTestServer> {
  const server = await startTestServer({
    ...options,
    env: { ADMIN_EMAILS: `someone@example.net, ${ADMIN_EMAIL.toUpperCase()}`, ...options.env },
  });
  const admin = await signUp(server.api, { email: ADMIN_EMAIL, displayName: 'Olga Ops' });
  // Admin rights hang on a verified address: follow the link the sign-up mailed, signed in.
  const token = tokenIn(await latestMail(server.dataDir, ADMIN_EMAIL), 'verify-email');
  const verified = await server.api('POST', '/api/auth/verify-email', { ...as(admin), body: { token } });
  if (verified.status !== 200)
    throw new Error(`the admin's address was not verified: ${JSON.stringify(verified.body)}`);
  const member = await signUp(server.api, { displayName: 'Mia Member' });
  return {
    ...server,
    admin: as(admin),
    adminUid: admin.user.uid,
    member: as(member),
    memberUid: member.user.uid,
    anonymous: { token: anonymousToken('anon-visitor'), headers: { 'x-anonymous': 'true' } },
  };
}
