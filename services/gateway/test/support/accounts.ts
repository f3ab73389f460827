import { authSession } from '@qrshirt/contracts';
import { expect } from 'vitest';
import type { ApiAnswer, ApiClient } from './test-server';

let counter = 0;
/** An address no other test uses, in a case the server must not care about. */
export const uniqueEmail = (name = 'user') => `${name}.${process.pid}.${Date.now()}.${++counter}@Example.com`;

let clients = 0;
/**
 * Another client address (TEST-NET-3, in X-Forwarded-For, which the default TRUST_PROXY believes
 * from loopback): sign-ups and mails are limited per address, and tests of other rules make many.
 */
export const newClient = () => ({ 'x-forwarded-for': `203.0.113.${(++clients % 250) + 1}` });

export async function signUp(api: ApiClient, body: { email?: string; password?: string; displayName?: string } = {}) {
  const answer = await api('POST', '/api/auth/signup', {
    body: { email: uniqueEmail(), password: 'correct horse', displayName: 'Ada', ...body },
    headers: newClient(),
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return authSession.parse(answer.body);
}

/** The headers the spec's client sends with a session. */
export const as = (session: { accessToken: string; user: { uid: string; anonymous: boolean } }) => ({
  token: session.accessToken,
  headers: { 'x-user-id': session.user.uid, ...(session.user.anonymous && { 'x-anonymous': 'true' }) },
});

/** `{ error, code }` with the spec's message for the code. */
export function expectAuthError(answer: ApiAnswer, status: number, code: string, message: string): void {
  expect({ status: answer.status, body: answer.body }).toEqual({ status, body: { error: message, code } });
}

/** A clock the test moves forward. */
export function testClock(start = Date.now()) {
  let now = start;
  return {
    clock: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;
