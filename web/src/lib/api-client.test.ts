import { type Charity, charity, donation, shirt, shirtList, user, userStats } from '@qrshirt/contracts';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { updateAuthState } from '@/lib/auth/session-store';
import { fakeApi } from '@/testing/fake-api';
import { sessionFor, signInAs } from '@/testing/session';
import { startSession } from './auth/auth-lifecycle';
import { call, callResponse } from './api-client';
import { ApiError } from './http';

describe('the API client', () => {
  it('sends the bearer token and the user id of a signed-in user', async () => {
    const server = fakeApi({ 'GET /api/shirts': { json: [] } });
    signInAs({ uid: 'u-1' });
    await call('listShirts', { schema: shirtList });
    expect(server.requests[0]!.headers).toMatchObject({
      authorization: 'Bearer token-u-1',
      'x-user-id': 'u-1',
      'content-type': 'application/json',
    });
    expect(server.requests[0]!.headers['x-anonymous']).toBeUndefined();
  });

  it('adds x-anonymous for an anonymous session', async () => {
    const server = fakeApi({ 'GET /api/shirts': { json: [] } });
    startSession(sessionFor({ uid: 'anon-1', anonymous: true }));
    await call('listShirts', { schema: shirtList });
    expect(server.requests[0]!.headers).toMatchObject({
      authorization: 'Bearer token-anon-1',
      'x-user-id': 'anon-1',
      'x-anonymous': 'true',
    });
  });

  it('says the anonymous sign-in failed when there is no session because of it', async () => {
    const server = fakeApi({ 'GET /api/shirts': { json: [] } });
    updateAuthState({ anonymousFailed: true });
    await call('listShirts', { schema: shirtList });
    expect(server.requests[0]!.headers).toMatchObject({
      'x-anonymous-attempted': 'true',
      'x-anonymous-failed': 'true',
    });
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('refuses a call of a route that needs a session when there is none, without sending it', async () => {
    const server = fakeApi({});
    await expect(call('getUserStats', { params: { id: 'u-1' }, schema: userStats })).rejects.toThrow(
      'Authentication required for this request',
    );
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    ['the error field', { json: { error: 'Shirt not found', message: 'ignored' } }, 'Shirt not found'],
    ['else the message field', { json: { message: 'Bad gateway mood' } }, 'Bad gateway mood'],
    ['else the raw text', { text: 'upstream timed out' }, 'upstream timed out'],
    ['else the status', { text: '' }, 'HTTP 502'],
  ])('explains a failure with %s', async (_rule, answer, message) => {
    fakeApi({ 'GET /api/shirts': { status: 502, ...answer } });
    const failure = await call('listShirts', { schema: shirtList }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).message).toBe(message);
    expect((failure as ApiError).status).toBe(502);
  });

  it('renews a refused token once and repeats the request with the new one', async () => {
    const server = fakeApi({
      'GET /api/user/u-1': (request) =>
        request.headers.authorization === 'Bearer token-u-1'
          ? { status: 401, json: { error: 'Invalid or expired token' } }
          : { json: { uid: 'u-1', displayName: null, email: null, photoURL: null, dailySummary: false } },
      'POST /api/auth/refresh': { json: { ...sessionFor({ uid: 'u-1' }), accessToken: 'renewed' } },
    });
    signInAs({ uid: 'u-1' });
    await call('getUser', { params: { id: 'u-1' }, schema: user });
    // The refresh token is the cookie the browser sends along; the API calls themselves carry none.
    expect(server.to('POST', '/api/auth/refresh')).toMatchObject([{ body: undefined, credentials: 'include' }]);
    expect(server.to('GET', '/api/user/u-1').map((request) => request.headers.authorization)).toEqual([
      'Bearer token-u-1',
      'Bearer renewed',
    ]);
    expect(server.to('GET', '/api/user/u-1').map((request) => request.credentials)).toEqual([undefined, undefined]);
  });

  it("sends the operation's method, its encoded path, query, declared headers and body", async () => {
    const server = fakeApi({
      'POST /api/fundraisers/f%201%2F2/donate': {
        status: 201,
        json: { id: 'd-1', fundraiserId: 'f 1/2', amount: 5, currency: 'USD', awaitingConfirmation: true },
      },
      'GET /api/fundraisers/f-1/qr.png': { text: 'png' },
    });
    const answer = await call('donate', {
      params: { id: 'f 1/2' },
      headers: { 'idempotency-key': 'k-1' },
      body: { amount: 5, source: 'widget' },
      schema: donation,
    });
    await callResponse('getQrPng', { params: { id: 'f-1' }, query: { download: '1' } });
    expect(answer).toEqual({
      id: 'd-1',
      fundraiserId: 'f 1/2',
      amount: 5,
      currency: 'USD',
      awaitingConfirmation: true,
    });
    expect(server.requests[0]).toMatchObject({ method: 'POST', body: { amount: 5, source: 'widget' } });
    expect(server.requests[0]!.headers['idempotency-key']).toBe('k-1');
    expect(server.requests[1]).toMatchObject({
      method: 'GET',
      path: '/api/fundraisers/f-1/qr.png',
      search: '?download=1',
    });
  });

  it('refuses an answer its schema does not read, however OK its status', async () => {
    fakeApi({ 'GET /api/shirt/s-1': { json: { id: 's-1', name: 'Tee' } } });
    await expect(call('getShirt', { params: { id: 's-1' }, schema: shirt })).rejects.toThrow(/price/);
  });

  it("answers what the call's schema reads, which tsc holds to the route's answer (checked by tsc)", () => {
    // Never run: the types are the test.
    const typed = () => {
      expectTypeOf(call('getCharity', { params: { id: 'c-1' }, schema: charity })).resolves.toEqualTypeOf<Charity>();
      // @ts-expect-error a schema of another route's answer
      void call('getCharity', { params: { id: 'c-1' }, schema: shirt });
      // @ts-expect-error the path's parameter is missing
      void call('getCharity', { schema: charity });
      // @ts-expect-error an answer with a JSON body is always parsed
      void call('getCharity', { params: { id: 'c-1' } });
    };
    expectTypeOf(typed).returns.toBeVoid();
  });
});
