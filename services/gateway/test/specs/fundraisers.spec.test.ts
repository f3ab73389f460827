import { reportIdFor } from '@qrshirt/core';
import { describe, expect, it } from 'vitest';
import { apiSpecificationPerTest } from '../support/api-specification';
import {
  charityCreated,
  donationConfirmed,
  donationRecorded,
  donationReportConfirmed,
  donationReported,
  fundraiserCreated,
  scanRecordedBeforeCounting,
  shirtAdded,
} from '../support/given';
import { ROBOTS, scanner } from '@qrshirt/test-support';
import { shortCodeEvents } from '../support/short-codes';
import { anonymousToken, userToken } from '../support/test-server';

const api = apiSpecificationPerTest({ clock: () => new Date('2026-03-02T09:00:00.000Z') });

const catalogue = [charityCreated('water'), shirtAdded('scan-me')];

describe('POST /api/fundraisers', () => {
  it('creates a fundraiser named after its shirt, owned by the caller', async () => {
    await api
      .given(...catalogue)
      .when('POST', '/api/fundraisers', { token: userToken('ada'), body: { charityId: 'water', shirtId: 'scan-me' } })
      .then({
        status: 201,
        body: { userId: 'ada', charityId: 'water', shirtId: 'scan-me', name: 'Scan Me Maybe' },
        events: [{ type: 'FundraiserCreated', data: { userId: 'ada', name: 'Scan Me Maybe' } }, ...shortCodeEvents()],
      });
  });

  it('refuses an unknown charity or shirt with 404 and appends nothing', async () => {
    const token = userToken('ada');
    await api
      .given(shirtAdded('scan-me'))
      .when('POST', '/api/fundraisers', { token, body: { charityId: 'water', shirtId: 'scan-me' } })
      .then({ status: 404, body: { error: 'Charity not found' }, events: [] });
  });

  it('refuses an anonymous session', async () => {
    await api
      .given(...catalogue)
      .when('POST', '/api/fundraisers', {
        token: anonymousToken('visitor'),
        body: { charityId: 'water', shirtId: 'scan-me' },
      })
      .then({ status: 403, body: { error: 'Please sign in with an account to do this' }, events: [] });
  });
});

describe('POST /api/fundraisers/{id}/donate', () => {
  it('records the amount the widget reported, in cents, as a report awaiting confirmation in a stream of its own', async () => {
    const { answer } = await api
      .given(...catalogue, fundraiserCreated('f1'))
      .when('POST', '/api/fundraisers/f1/donate', { body: { amount: '"19.99"' } })
      .then({
        status: 201,
        body: { fundraiserId: 'f1', amount: 19.99, currency: 'USD', awaitingConfirmation: true },
        events: [
          {
            type: 'DonationReported',
            data: { fundraiserId: 'f1', amountCents: 1999, source: 'widget', idempotencyKey: null, confirmedBy: null },
          },
        ],
      });
    await api
      .given()
      .when('GET', '/api/fundraisers/f1/stats', { token: userToken('owner') })
      .then({ status: 200, body: { donations: 0, amountRaised: 0, amountReported: 19.99, daily: [] } });
    expect(answer.body.id).toEqual(expect.any(String));
  });

  it('answers a retry with the same Idempotency-Key with the donation already recorded, and records nothing', async () => {
    const first = await api
      .given(...catalogue, fundraiserCreated('f1'))
      .when('POST', '/api/fundraisers/f1/donate', { body: { amount: 5 }, headers: { 'Idempotency-Key': 'k-1' } })
      .then({ status: 201 });
    await api
      .given()
      .when('POST', '/api/fundraisers/f1/donate', { body: { amount: 5 }, headers: { 'Idempotency-Key': 'k-1' } })
      .then({ status: 200, body: { id: first.answer.body.id, amount: 5 }, events: [] });
  });

  it("answers that a report awaits nothing when the processor's confirmation got there first", async () => {
    const reportId = reportIdFor('f1', 'k-1');
    await api
      .given(
        ...catalogue,
        fundraiserCreated('f1'),
        donationConfirmed('f1', 'pi_1', 500, reportId),
        donationReportConfirmed('f1', reportId, 'pi_1', 0),
      )
      .when('POST', '/api/fundraisers/f1/donate', { body: { amount: 5 }, headers: { 'Idempotency-Key': 'k-1' } })
      .then({ status: 201, body: { id: reportId, amount: 5, awaitingConfirmation: false } });
    // A retry after its confirmation says the same.
    await api
      .given()
      .when('POST', '/api/fundraisers/f1/donate', { body: { amount: 5 }, headers: { 'Idempotency-Key': 'k-1' } })
      .then({ status: 200, body: { id: reportId, awaitingConfirmation: false }, events: [] });
  });

  it('refuses the same Idempotency-Key with another amount', async () => {
    const earlier = donationReported('f1', reportIdFor('f1', 'k-1'), 500, { idempotencyKey: 'k-1' });
    await api
      .given(...catalogue, fundraiserCreated('f1'), earlier)
      .when('POST', '/api/fundraisers/f1/donate', { body: { amount: 7 }, headers: { 'Idempotency-Key': 'k-1' } })
      .then({
        status: 409,
        body: { error: 'Idempotency-Key was already used with a different amount' },
        events: [],
      });
  });

  it('refuses amounts that are not above 0, and unknown fundraisers', async () => {
    await api
      .given(...catalogue, fundraiserCreated('f1'))
      .when('POST', '/api/fundraisers/f1/donate', { body: { amount: 0 } })
      .then({ status: 400, body: { error: 'amount must be a number greater than 0' }, events: [] });
    await api
      .given()
      .when('POST', '/api/fundraisers/nope/donate', { body: { amount: 5 } })
      .then({ status: 404, body: { error: 'Fundraiser not found' }, events: [] });
  });
});

describe('POST /api/fundraisers/{id}/scan', () => {
  const counted = (visitor: string, more: Record<string, unknown> = {}) => ({
    stream: 'scans-p0',
    type: 'ScanRecorded',
    data: {
      fundraiserId: 'f1',
      at: '2026-03-02T09:00:00.000Z',
      visitorHash: visitor,
      addressHash: expect.any(String),
      bot: false,
      counted: true,
      ...more,
    },
  });

  it('stores every request with its visitor hash, and whether it counted: once per visitor', async () => {
    const first = await api
      .given(...catalogue, fundraiserCreated('f1'))
      .when('POST', '/api/fundraisers/f1/scan', { headers: scanner(1) })
      .then({ status: 202, body: { scanId: expect.any(String) }, events: [counted(expect.any(String))] });
    const visitor = (first.events[0]!.data as { visitorHash: string }).visitorHash;
    await api
      .given()
      .when('POST', '/api/fundraisers/f1/scan', { headers: scanner(1) })
      .then({ status: 202, events: [counted(visitor, { counted: false })] });
  });

  it('answers a link previewer 202, stores its request as a robot, and does not count it', async () => {
    await api
      .given(...catalogue, fundraiserCreated('f1'))
      .when('POST', '/api/fundraisers/f1/scan', { headers: scanner(1, { userAgent: ROBOTS.whatsapp }) })
      .then({ status: 202, events: [counted(expect.any(String), { bot: true, counted: false })] });
  });
});

describe('GET /api/fundraisers/{id}/stats', () => {
  it('reads scans stored before scans were counted as counted scans', async () => {
    await api
      .given(
        ...catalogue,
        fundraiserCreated('f1', { userId: 'ada' }),
        scanRecordedBeforeCounting('f1', 's1'),
        scanRecordedBeforeCounting('f1', 's2'),
      )
      .when('GET', '/api/fundraisers/f1/stats', { token: userToken('ada') })
      .then({
        status: 200,
        body: { scans: 2, scanRequests: 2, daily: [{ date: '2026-03-01', scans: 2, scanRequests: 2 }] },
      });
  });

  it('shows the owner the figures of the history, and nobody else (donations of older logs count as raised)', async () => {
    const history = [
      ...catalogue,
      fundraiserCreated('f1', { userId: 'ada' }),
      donationRecorded('f1', 'd1', 1000),
      donationRecorded('f1', 'd2', 250),
    ];
    await api
      .given(...history)
      .when('GET', '/api/fundraisers/f1/stats', { token: userToken('ada') })
      .then({
        status: 200,
        body: {
          scans: 0,
          scanRequests: 0,
          donations: 2,
          amountRaised: 12.5,
          amountReported: 0,
          daily: [{ date: '2026-03-01', amountRaised: 12.5 }],
        },
      });
    await api
      .given()
      .when('GET', '/api/fundraisers/f1/stats', { token: userToken('bob') })
      .then({ status: 403, body: { error: 'Only the owner of this fundraiser can see its stats' } });
  });
});
