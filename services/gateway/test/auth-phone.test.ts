import { authSession } from '@qrshirt/contracts';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, waitForSms } from '@qrshirt/test-support';
import { expectAuthError, MINUTE, testClock } from './support/accounts';
import { startTestServer, type TestServer } from './support/test-server';

const time = testClock();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ clock: time.clock });
});
afterAll(() => server.stop());

const INVALID_NUMBER = 'Please enter a valid phone number with country code (e.g., +1234567890).';
const INVALID_CODE = 'Invalid verification code. Please check the code and try again.';
const EXPIRED = 'Verification code has expired. Please request a new code.';

let nextNumber = 0;
const newNumber = () => `+1555${String(process.pid % 1000).padStart(3, '0')}${String(++nextNumber).padStart(4, '0')}`;

const smsCount = new Map<string, number>();

/** Starts a verification and reads the code from the SMS file the server wrote, as a developer would. */
async function startPhone(phoneNumber: string) {
  const started = await server.api('POST', '/api/auth/phone/start', { body: { phoneNumber } });
  expect(started.status).toBe(202);
  const count = (smsCount.get(phoneNumber) ?? 0) + 1;
  smsCount.set(phoneNumber, count);
  const sms = (await waitForSms(server.dataDir, phoneNumber, count)).at(-1)!;
  const code = /(?<![\d+])(\d{6})(?!\d)/.exec(sms)![1]!;
  return { verificationId: started.body.verificationId as string, code };
}

const confirm = (verificationId: string, code: string) =>
  server.api('POST', '/api/auth/phone/confirm', { body: { verificationId, code } });

describe('phone sign-in', () => {
  it('texts a 6-digit code and signs in with it; the same number is the same account next time', async () => {
    const number = newNumber();
    const first = await startPhone(number);
    expect(first.code).toMatch(/^\d{6}$/);
    const signedIn = await confirm(first.verificationId, first.code);
    expect(signedIn.status).toBe(200);
    const session = authSession.parse(signedIn.body);
    expect(session.user).toMatchObject({ anonymous: false, email: null });
    expect((await server.api('GET', `/api/user/${session.user.uid}`, as(session))).status).toBe(200);

    const again = await startPhone(number);
    expect((await confirm(again.verificationId, again.code)).body.user.uid).toBe(session.user.uid);
    const other = await startPhone(newNumber());
    expect((await confirm(other.verificationId, other.code)).body.user.uid).not.toBe(session.user.uid);
  });

  it('accepts a code once', async () => {
    const { verificationId, code } = await startPhone(newNumber());
    expect((await confirm(verificationId, code)).status).toBe(200);
    expectAuthError(await confirm(verificationId, code), 400, 'code-expired', EXPIRED);
  });

  it('refuses numbers that are not E.164', async () => {
    for (const phoneNumber of ['5551234567', '+0123456789', '+1 555', 'call me', '']) {
      expectAuthError(
        await server.api('POST', '/api/auth/phone/start', { body: { phoneNumber } }),
        400,
        'invalid-phone-number',
        INVALID_NUMBER,
      );
    }
  });

  it('refuses a wrong code, and any code after five tries', async () => {
    const { verificationId, code } = await startPhone(newNumber());
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= 5; attempt++) {
      expectAuthError(await confirm(verificationId, wrong), 400, 'invalid-verification-code', INVALID_CODE);
    }
    expectAuthError(await confirm(verificationId, code), 400, 'code-expired', EXPIRED);
  });

  it('expires a code after 10 minutes', async () => {
    const { verificationId, code } = await startPhone(newNumber());
    time.advance(10 * MINUTE + 1_000);
    expectAuthError(await confirm(verificationId, code), 400, 'code-expired', EXPIRED);
    expectAuthError(await confirm('no-such-verification', code), 400, 'code-expired', EXPIRED);
  });

  it('stores neither the code nor the number in clear text', async () => {
    const number = newNumber();
    const { code } = await startPhone(number);
    const db = new Database(`${server.dataDir}/credentials.sqlite`, { readonly: true });
    try {
      const rows = db.prepare('SELECT * FROM phone_verifications').all() as Record<string, unknown>[];
      expect(rows.length).toBeGreaterThan(0);
      for (const value of rows.flatMap((row) => Object.values(row))) {
        expect([code, number]).not.toContain(String(value));
      }
    } finally {
      db.close();
    }
  });
});
