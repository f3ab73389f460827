import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type AdminEventsPage,
  apiRequest,
  apiRouteList,
  type CallAnswer,
  type CallInput,
  type Donation,
  fillPath,
  queryString,
  routeAddresses,
  type Shirt,
} from '../src';

describe('fillPath', () => {
  it('puts each parameter in its place, encoded as one path segment', () => {
    expect(fillPath('/api/admin/waitlist/entries/{entryId}/fulfil', { entryId: 'e-1' })).toBe(
      '/api/admin/waitlist/entries/e-1/fulfil',
    );
    expect(fillPath('/api/shirt/{id}', { id: 'a b/c?d#e%' })).toBe('/api/shirt/a%20b%2Fc%3Fd%23e%25');
  });

  it('refuses a path whose parameter is missing rather than send it with the braces', () => {
    expect(() => fillPath('/api/user/{id}/stats', {})).toThrow('/api/user/{id}/stats needs its parameter id');
  });
});

describe('queryString', () => {
  it('keeps the order given, encodes, and leaves out what is not given', () => {
    expect(queryString({ limit: 25, after: undefined, order: 'newest', type: 'A,B', from: null, q: 'x&y=z' })).toBe(
      '?limit=25&order=newest&type=A%2CB&q=x%26y%3Dz',
    );
  });

  it('is empty when nothing is given', () => {
    expect(queryString({})).toBe('');
    expect(queryString({ from: undefined })).toBe('');
  });
});

describe('apiRequest', () => {
  it("builds the operation's method and path from the route table", () => {
    expect(apiRequest('listShirts')).toEqual({ method: 'GET', path: '/api/shirts', headers: {} });
    expect(apiRequest('getRebuild', { params: { name: 'fundraisers v2' } })).toEqual({
      method: 'GET',
      path: '/api/admin/projections/fundraisers%20v2/rebuild',
      headers: {},
    });
  });

  it('adds the query string, the declared headers and the body', () => {
    expect(
      apiRequest('donate', {
        params: { id: 'f-1' },
        headers: { 'idempotency-key': 'checkout-1' },
        body: { amount: '5.00', source: 'widget' },
      }),
    ).toEqual({
      method: 'POST',
      path: '/api/fundraisers/f-1/donate',
      headers: { 'idempotency-key': 'checkout-1' },
      body: { amount: '5.00', source: 'widget' },
    });
    expect(apiRequest('getQrPng', { params: { id: 'f-1' }, query: { download: '1' } }).path).toBe(
      '/api/fundraisers/f-1/qr.png?download=1',
    );
  });

  it('sends no body when none is given, and a header not given is not sent', () => {
    const request = apiRequest('donate', { params: { id: 'f-1' }, headers: {}, body: { amount: 1 } });
    expect(request.headers).toEqual({});
    expect('body' in apiRequest('recordScan', { params: { id: 'f-1' } })).toBe(false);
  });

  it('types every part of the request by the route schemas, and the answer by its 2xx schemas', () => {
    expectTypeOf<CallInput<'getShirt'>>().toEqualTypeOf<
      { params: { id: string } } & { query?: never } & { headers?: never } & { body?: never }
    >();
    // Defaults may be left out: the schema's input, not its output.
    expectTypeOf<CallInput<'listEvents'>['query']>().toExtend<{ order?: 'newest' | 'oldest' } | undefined>();
    expectTypeOf<CallInput<'donate'>['headers']>().toEqualTypeOf<{ 'idempotency-key'?: string } | undefined>();
    // A route that asks for a proof of work cannot be called without one.
    expectTypeOf<CallInput<'joinWaitlist'>['headers']>().toEqualTypeOf<{ 'x-altcha': string }>();

    expectTypeOf<CallAnswer<'getShirt'>>().toEqualTypeOf<Shirt>();
    // 200 (a retry) and 201 both answer the donation.
    expectTypeOf<CallAnswer<'donate'>>().toEqualTypeOf<Donation>();
    expectTypeOf<CallAnswer<'listEvents'>>().toEqualTypeOf<AdminEventsPage>();
    expectTypeOf<CallAnswer<'signOut'>>().toEqualTypeOf<undefined>();
    expectTypeOf<CallAnswer<'downloadWaitlistCsv'>>().toEqualTypeOf<undefined>();
  });

  it('refuses, in tsc, a call the route table does not allow', () => {
    const refused = () => {
      // @ts-expect-error the path's parameter is required
      apiRequest('getShirt');
      // @ts-expect-error a body field the schema does not have
      apiRequest('donate', { params: { id: 'f-1' }, body: { amonut: 5 } });
      // @ts-expect-error a parameter of another name
      apiRequest('fulfilWaitlistEntry', { params: { id: 'e-1' } });
      // @ts-expect-error a query parameter the route does not read
      apiRequest('listAdminAudit', { query: { cursor: '2' } });
      // @ts-expect-error an operation the table does not have
      apiRequest('getShirts');
    };
    expect(refused).toThrow();
  });
});

describe('routeAddresses', () => {
  it("holds each operation's method, path and auth as the route table does", () => {
    expect(routeAddresses).toEqual(
      Object.fromEntries(
        apiRouteList.map(({ operationId, method, path, auth }) => [operationId, { method, path, auth }]),
      ),
    );
  });
});
