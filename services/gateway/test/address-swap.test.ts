import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { me, user } from '@qrshirt/contracts';
import {
  type ApiClient,
  as,
  createApiClient,
  type GatewayProcess,
  type LocalSmtp,
  newClient,
  type ReceivedMail,
  signUp,
  startGatewayProcess,
  startSmtpServer,
  uniqueEmail,
} from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxSent } from './support/outbox';

/*
 * Issue 27, item 1, as it was reproduced: someone signs up with an admin address nobody registered
 * yet, then tries to have a verification link for it mailed to their own mailbox by swapping the
 * profile's address back and forth. Against `npm start`'s process, delivering through a real SMTP
 * server: every mail it sends is one the test can see.
 */
const ADMIN = `root.${process.pid}@shirts-admin.example`;
const OTHER_ADMIN = `ops.${process.pid}@shirts-admin.example`;
const PUBLIC_BASE_URL = 'https://shirts.example';

let smtp: LocalSmtp;
let gateway: GatewayProcess;
let dataDir: string;
let api: ApiClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-swap-'));
  gateway = await startGatewayProcess({
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    ADMIN_EMAILS: `${ADMIN},${OTHER_ADMIN}`,
    PUBLIC_BASE_URL,
  });
  api = createApiClient(gateway.url);
});
afterAll(async () => {
  await gateway?.terminate();
  await smtp?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const to = (address: string) => (mail: ReceivedMail) => mail.to.toLowerCase() === address.toLowerCase();
const linkIn = (mail: ReceivedMail) => /https:\/\/shirts\.example\/verify-email#(\S+)/.exec(mail.text)?.[1];

/** What reached `address`, once the outbox has sent all it stored for it: nothing more may arrive after. */
async function mailsTo(address: string): Promise<ReceivedMail[]> {
  await outboxSent(dataDir, { to: address });
  return smtp.messages.filter(to(address));
}

describe('swapping the profile’s address to have an admin address’s link mailed elsewhere', () => {
  it('is refused at every step: the admin address stays unverified and the account no admin', async () => {
    const mailbox = uniqueEmail('squatter').toLowerCase();
    const squatter = await signUp(api, { email: ADMIN, displayName: 'Not Root' });
    const uid = squatter.user.uid;
    const asSquatter = (options: { body?: unknown } = {}) => ({
      ...as(squatter),
      ...options,
      headers: { ...as(squatter).headers, ...newClient() },
    });
    // Sign-up mailed the admin address its link, which only the admin address's owner can read.
    expect((await mailsTo(ADMIN)).map((mail) => mail.subject)).toEqual(['Confirm your email address']);

    // 1. The profile sync would set the address to the squatter's own mailbox: refused, nothing changed.
    const swapped = await api(
      'POST',
      '/api/user',
      asSquatter({ body: { uid, displayName: 'Not Root', email: mailbox, photoURL: null } }),
    );
    expect({ status: swapped.status, body: swapped.body }).toEqual({
      status: 409,
      body: {
        error:
          'Your email address changes only by the link we mail to the new address: use Change email in Edit Profile',
      },
    });
    expect(user.parse((await api('GET', `/api/user/${uid}`, asSquatter())).body).email).toBe(ADMIN);

    // 2. A new verification link goes to the address the account holds, never to the squatter's.
    expect((await api('POST', '/api/auth/verify-email/resend', asSquatter())).status).toBe(202);

    // 3. Setting the admin address "back" changes nothing, and is no error.
    const back = await api('POST', '/api/user', asSquatter({ body: { uid, displayName: 'Not Root', email: ADMIN } }));
    expect({ status: back.status, email: back.body.email }).toEqual({ status: 200, email: ADMIN });

    // 4. No link ever reached the squatter's mailbox: there is none to follow.
    expect(await mailsTo(ADMIN)).toHaveLength(2);
    expect(await mailsTo(mailbox)).toEqual([]);

    // The admin address is still unverified, and the account no admin.
    expect(me.parse((await api('GET', '/api/me', asSquatter())).body)).toMatchObject({
      admin: false,
      emailVerified: false,
    });
    const adminArea = await api('GET', '/api/admin/overview', asSquatter());
    expect({ status: adminArea.status, body: adminArea.body }).toEqual({
      status: 403,
      body: { error: 'Only administrators can do this' },
    });
  });

  it('cannot be done with a change of address either: each link goes to the address it changes to', async () => {
    const mailbox = uniqueEmail('mover').toLowerCase();
    const squatter = await signUp(api, { displayName: 'Mover' });
    const uid = squatter.user.uid;
    const headers = () => ({ ...as(squatter).headers, ...newClient() });

    // Moving away to the squatter's own mailbox works: that mailbox is theirs.
    const asked = await api('POST', `/api/user/${uid}/email`, {
      ...as(squatter),
      headers: headers(),
      body: { email: mailbox },
    });
    expect(asked.status).toBe(202);
    const [changeMail] = await mailsTo(mailbox);
    expect(changeMail!.subject).toBe('Confirm your new email address');
    const fragment = new URLSearchParams(linkIn(changeMail!));
    expect(fragment.get('email')).toBe(mailbox);
    const moved = await api('POST', '/api/auth/verify-email', {
      ...as(squatter),
      headers: headers(),
      body: { token: fragment.get('token'), email: fragment.get('email') },
    });
    expect(moved.body).toEqual({ email: mailbox, emailVerified: true, changed: true });

    // Asking to move to an admin address nobody holds mails that address, which the squatter cannot
    // read; until its link is followed the account stays where it is.
    const toAdmin = await api('POST', `/api/user/${uid}/email`, {
      ...as(squatter),
      headers: headers(),
      body: { email: OTHER_ADMIN },
    });
    expect(toAdmin.status).toBe(202);
    expect((await mailsTo(OTHER_ADMIN)).map((mail) => mail.subject)).toEqual(['Confirm your new email address']);
    expect(await mailsTo(mailbox)).toHaveLength(1);
    expect(user.parse((await api('GET', `/api/user/${uid}`, { ...as(squatter), headers: headers() })).body).email).toBe(
      mailbox,
    );
    expect(me.parse((await api('GET', '/api/me', { ...as(squatter), headers: headers() })).body)).toMatchObject({
      admin: false,
      emailVerified: true,
    });
    expect((await api('GET', '/api/admin/overview', { ...as(squatter), headers: headers() })).status).toBe(403);
  });
});
