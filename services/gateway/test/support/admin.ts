import type { Clock } from '@qrshirt/core';
import { as, signUp } from './accounts';
import { anonymousToken, type RequestOptions, startTestServer, type TestServer } from './test-server';

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

/** A test server with ADMIN_EMAILS set, an admin and an ordinary member signed up. */
export async function startAdminServer(options: { env?: Record<string, string>; clock?: Clock } = {}): Promise<AdminTestServer> {
  const server = await startTestServer({
    ...options,
    env: { ADMIN_EMAILS: `someone@example.net, ${ADMIN_EMAIL.toUpperCase()}`, ...options.env },
  });
  const admin = await signUp(server.api, { email: ADMIN_EMAIL, displayName: 'Olga Ops' });
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
