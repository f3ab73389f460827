import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { authSession, me, user, userStats } from '@qrshirt/contracts';
import { seedCharities, seedShirts } from '@qrshirt/core';
import {
  type ApiClient,
  as,
  createApiClient,
  createFundraiser,
  type GatewayProcess,
  launchProcess,
  type LocalSmtp,
  newClient,
  outputTail,
  type ReceivedMail,
  signUp,
  startGatewayProcess,
  startSmtpServer,
  TEST_LOOKUP_KEY_SECRET,
  uniqueEmail,
} from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxSent } from './support/outbox';

/*
 * Issue 45, items 1 to 3, as they were reproduced: against `npm start`'s process, delivering
 * through a real SMTP server, so every mail it sends is one the test can read. A link mailed to an
 * address acts only for the account that asked; recovering an account ends every link mailed
 * before; strangers' waitlist joins spend nothing of an account's own mail.
 */
const ROOT = `root.${process.pid}@shirts-admin.example`;
const OPS = `ops.${process.pid}@shirts-admin.example`;
const PUBLIC_BASE_URL = 'https://shirts.example';
const PASSWORD = 'correct horse';

let smtp: LocalSmtp;
let gateway: GatewayProcess;
let dataDir: string;
let api: ApiClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-links-'));
  gateway = await startGatewayProcess({
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    ADMIN_EMAILS: `${ROOT},${OPS}`,
    PUBLIC_BASE_URL,
  });
  api = createApiClient(gateway.url);
});
afterAll(async () => {
  await gateway?.terminate();
  await smtp?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

type Session = Parameters<typeof as>[0];
/** The session's headers, from a client address of its own: mail budgets count per client too. */
const by = (session: Session) => ({ ...as(session), headers: { ...as(session).headers, ...newClient() } });

/** What reached `address`, once the outbox has sent all it stored for it: nothing more may arrive after. */
async function mailsTo(address: string): Promise<ReceivedMail[]> {
  await outboxSent(dataDir, { to: address });
  return smtp.messages.filter((mail) => mail.to.toLowerCase() === address.toLowerCase());
}

/** The fragment of the mail's link to `page`, as the page reads it. */
function fragmentOf(mail: ReceivedMail, page: string): URLSearchParams {
  const fragment = new RegExp(`${PUBLIC_BASE_URL}/${page}#(\\S+)`).exec(mail.text)?.[1];
  if (!fragment) throw new Error(`no /${page} link in: ${mail.text}`);
  return new URLSearchParams(fragment);
}

async function onlyMailTo(address: string, subject: string): Promise<ReceivedMail> {
  const mails = await mailsTo(address);
  expect(mails.map((mail) => mail.subject)).toEqual([subject]);
  return mails[0]!;
}

const meOf = async (session: Session) => me.parse((await api('GET', '/api/me', by(session))).body);
const signIn = async (email: string, password = PASSWORD) =>
  api('POST', '/api/auth/signin', { body: { email, password }, headers: newClient() });

/** `count` different waitlist joins for `email`: one shirt in as many sizes. */
function waitlistJoins(email: string, count: number) {
  const shirt = seedShirts.find((each) => each.sizes.length >= count)!;
  return shirt.sizes.slice(0, count).map((size) => ({
    shirtId: shirt.shirtId,
    selectedSize: size,
    selectedCharity: seedCharities[0]!.charityId,
    name: 'A stranger',
    email,
  }));
}

async function resetPassword(email: string, password: string): Promise<void> {
  expect((await api('POST', '/api/auth/password-reset', { body: { email }, headers: newClient() })).status).toBe(202);
  const mail = (await mailsTo(email)).find((each) => each.subject === 'Reset your QR Shirts password');
  const token = fragmentOf(mail!, 'signin').get('reset');
  const confirmed = await api('POST', '/api/auth/password-reset/confirm', { body: { token, password } });
  expect(confirmed.status).toBe(204);
}

describe('a mailed link acts only for the account that asked for it', () => {
  it('gives mallory nothing when the admin follows the link of her change to the admin’s address', async () => {
    const mallory = await signUp(api, { displayName: 'Mallory' });
    const malloryEmail = mallory.user.email!;
    expect(
      (await api('POST', `/api/user/${mallory.user.uid}/email`, { ...by(mallory), body: { email: ROOT } })).status,
    ).toBe(202);
    const mail = await onlyMailTo(ROOT, 'Confirm your new email address');
    // The mail says who asked.
    expect(mail.text).toContain('Account Mallory asked to use this address on QR Shirts.');
    const link = {
      token: fragmentOf(mail, 'verify-email').get('token'),
      email: fragmentOf(mail, 'verify-email').get('email'),
    };

    // The admin opens it signed out: the page learns who asked, and following it needs that account.
    const preview = await api('POST', '/api/auth/verify-email/preview', { body: link });
    expect(preview.body).toEqual({ email: ROOT, displayName: 'Mallory', change: true, yours: false });
    const signedOut = await api('POST', '/api/auth/verify-email', { body: link });
    expect({ status: signedOut.status, body: signedOut.body }).toEqual({
      status: 401,
      body: { error: 'sign-in-required' },
    });

    // The admin signs up with their address and follows mallory's link signed in as themselves.
    const root = await signUp(api, { email: ROOT, password: PASSWORD, displayName: 'Root' });
    const asRoot = await api('POST', '/api/auth/verify-email', { ...by(root), body: link });
    expect(asRoot.status).toBe(403);

    // Mallory's token has nothing: no admin, her address as it was, the admin address not hers.
    expect(await meOf(mallory)).toEqual({
      uid: mallory.user.uid,
      anonymous: false,
      admin: false,
      emailVerified: false,
    });
    expect(user.parse((await api('GET', `/api/user/${mallory.user.uid}`, by(mallory))).body).email).toBe(malloryEmail);
    expect((await api('GET', '/api/admin/overview', by(mallory))).status).toBe(403);

    // The admin's own sign-up link, followed signed in, makes them the admin.
    const own = (await mailsTo(ROOT)).find((each) => each.subject === 'Confirm your email address')!;
    expect(own.text).toContain('Account Root asked to use this address on QR Shirts.');
    const verified = await api('POST', '/api/auth/verify-email', {
      ...by(root),
      body: { token: fragmentOf(own, 'verify-email').get('token') },
    });
    expect(verified.body).toEqual({ email: ROOT, emailVerified: true });
    expect(await meOf(root)).toMatchObject({ admin: true, emailVerified: true });
    expect(await meOf(mallory)).toMatchObject({ admin: false });
  });

  it('makes an admin of an account that moved to a listed address only by the operator’s command', async () => {
    const mover = await signUp(api, { displayName: 'Olga' });
    expect(
      (await api('POST', `/api/user/${mover.user.uid}/email`, { ...by(mover), body: { email: OPS } })).status,
    ).toBe(202);
    const fragment = fragmentOf(await onlyMailTo(OPS, 'Confirm your new email address'), 'verify-email');
    const moved = await api('POST', '/api/auth/verify-email', {
      ...by(mover),
      body: { token: fragment.get('token'), email: fragment.get('email') },
    });
    expect(moved.body).toEqual({ email: OPS, emailVerified: true, changed: true });
    expect(await meOf(mover)).toMatchObject({ admin: false, emailVerified: true });

    const admin = (...args: string[]) =>
      launchProcess({
        name: 'npm run admin',
        command: ['npm', 'run', '-s', 'admin', '--', ...args],
        env: { DATA_DIR: dataDir, LOOKUP_KEY_SECRET: TEST_LOOKUP_KEY_SECRET, LOG_LEVEL: 'warn' },
      });
    const nobody = admin('grant', uniqueEmail('nobody'));
    expect(await nobody.exited, outputTail(nobody)).toBe(1);
    expect(nobody.output.join('\n')).toMatch(/^admin: no account holds \S+: sign up with it first, then grant$/m);

    const granted = admin('grant', OPS.toUpperCase());
    expect(await granted.exited, outputTail(granted)).toBe(0);
    expect(granted.output).toContain(`admin: ${OPS.toUpperCase()} (account ${mover.user.uid}) is an admin now`);
    // From its next request, in the running gateway.
    expect(await meOf(mover)).toMatchObject({ admin: true });
    expect((await api('GET', '/api/admin/overview', by(mover))).status).toBe(200);
  });
});

describe('recovering an account ends every link mailed before', () => {
  it('leaves a squatter’s kept change link dead once the owner took the account back by a reset', async () => {
    const ceo = uniqueEmail('ceo');
    const hideout = uniqueEmail('hideout');
    const squatter = await signUp(api, { email: ceo, password: 'squatters-password', displayName: 'Squatter' });
    const uid = squatter.user.uid;
    expect((await api('POST', `/api/user/${uid}/email`, { ...by(squatter), body: { email: hideout } })).status).toBe(
      202,
    );
    const kept = fragmentOf(await onlyMailTo(hideout, 'Confirm your new email address'), 'verify-email');
    const link = { token: kept.get('token'), email: kept.get('email') };

    // The owner of ceo@ takes the account back and makes a fundraiser with it.
    await resetPassword(ceo, 'the-owners-password');
    const owner = authSession.parse((await signIn(ceo, 'the-owners-password')).body);
    expect(owner.user.uid).toBe(uid);
    const fundraiser = await createFundraiser(api, by(owner), { name: 'The real walk' });

    // The squatter's session ended with the reset; their kept link is dead, even were the owner
    // led to open it signed in.
    expect((await api('POST', '/api/auth/verify-email', { ...by(squatter), body: link })).status).toBe(401);
    for (const session of [null, owner]) {
      const followed = await api('POST', '/api/auth/verify-email', { ...(session && by(session)), body: link });
      expect(followed.status).toBe(400);
      expect(followed.body.error).toEqual(expect.any(String));
    }
    expect((await api('POST', '/api/auth/verify-email/preview', { body: link })).status).toBe(400);

    // The account, fundraiser included, stays at the owner's address.
    expect(user.parse((await api('GET', `/api/user/${uid}`, by(owner))).body).email).toBe(ceo);
    const stats = userStats.parse((await api('GET', `/api/user/${uid}/stats`, by(owner))).body);
    expect(stats.fundraiserStats.map((each) => each.id)).toEqual([fundraiser.id]);
    expect((await signIn(hideout)).status).toBe(401);
    expect((await signIn(ceo, 'squatters-password')).status).toBe(401);
  });
});

describe('mail budgets strangers cannot spend', () => {
  it('still mails eve her own reset link after three strangers’ waitlist joins for her address', async () => {
    const eve = uniqueEmail('eve');
    await signUp(api, { email: eve, password: PASSWORD, displayName: 'Eve' });
    const stranger = newClient();
    // Three that spend the waitlist's budget of the address, and one past it, answered as usual.
    for (const body of waitlistJoins(eve, 4)) {
      const joined = await api('POST', '/api/waitlist', { body, headers: stranger });
      expect(joined.status).toBe(201);
    }
    const before = await mailsTo(eve);
    expect(before.filter((mail) => mail.subject.startsWith('Confirm your place'))).toHaveLength(3);

    const reset = await api('POST', '/api/auth/password-reset', { body: { email: eve }, headers: newClient() });
    expect({ status: reset.status, retryAfter: reset.headers.get('retry-after') }).toEqual({
      status: 202,
      retryAfter: null,
    });
    const after = await mailsTo(eve);
    expect(after.filter((mail) => mail.subject === 'Reset your QR Shirts password')).toHaveLength(1);
  });
});
