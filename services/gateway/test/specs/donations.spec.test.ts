import { describe, it } from 'vitest';
import { apiSpecificationPerTest } from '../support/api-specification';
import {
  charityCreated,
  donationConfirmed,
  donationRecorded,
  donationReportConfirmed,
  donationReported,
  fundraiserCreated,
  shirtAdded,
} from '../support/given';
import { userToken } from '../support/test-server';
import { type DonationEvent, refunded, signedHeaders, succeeded } from '../support/webhooks';

const api = apiSpecificationPerTest({ clock: () => new Date('2026-03-02T09:00:00.000Z') });

const fundraiser = [charityCreated('water'), shirtAdded('scan-me'), fundraiserCreated('f1', { userId: 'ada' })];
const owner = { token: userToken('ada') };

/** The request a processor makes: the event signed with the tests' secret. */
function webhook(event: DonationEvent, id = 'msg_1') {
  const rawBody = JSON.stringify(event);
  return { rawBody, headers: signedHeaders(rawBody, { id }) };
}

describe('POST /api/webhooks/donations', () => {
  it('confirms a donation, settles the report it names, and remembers the message', async () => {
    await api
      .given(...fundraiser, donationReported('f1', 'r1', 1250))
      .when(
        'POST',
        '/api/webhooks/donations',
        webhook(succeeded({ donationId: 'pi_1', fundraiserId: 'f1', amount: 12.5, reportId: 'r1' })),
      )
      .then({
        status: 200,
        body: { outcome: 'confirmed' },
        events: [
          {
            stream: 'donation-report-r1',
            type: 'DonationReportConfirmed',
            data: { reportId: 'r1', donationId: 'pi_1', pendingCents: 1250 },
          },
          {
            stream: 'processor-donation-pi_1',
            type: 'DonationConfirmed',
            data: { donationId: 'pi_1', fundraiserId: 'f1', amountCents: 1250, reportId: 'r1' },
          },
          { type: 'DonationWebhookReceived', data: { webhookId: 'msg_1', type: 'donation.succeeded' } },
        ],
      });
    await api
      .given()
      .when('GET', '/api/fundraisers/f1/stats', owner)
      .then({
        status: 200,
        body: { donations: 1, amountRaised: 12.5, amountReported: 0, daily: [{ date: '2026-03-02', donations: 1 }] },
      });
  });

  it('changes nothing for a donation it confirmed already, under a new message id', async () => {
    await api
      .given(...fundraiser, donationConfirmed('f1', 'pi_1', 1250))
      .when(
        'POST',
        '/api/webhooks/donations',
        webhook(succeeded({ donationId: 'pi_1', fundraiserId: 'f1', amount: 12.5 }), 'msg_2'),
      )
      .then({ status: 200, body: { outcome: 'unchanged' }, events: [{ type: 'DonationWebhookReceived' }] });
  });

  it('refunds a confirmed donation on the day of the refund', async () => {
    await api
      .given(...fundraiser, donationConfirmed('f1', 'pi_1', 1250), donationConfirmed('f1', 'pi_2', 500))
      .when(
        'POST',
        '/api/webhooks/donations',
        webhook(refunded({ donationId: 'pi_1', fundraiserId: 'f1', amount: 12.5 })),
      )
      .then({
        status: 200,
        body: { outcome: 'refunded' },
        events: [
          {
            type: 'DonationMovementRecorded',
            data: { donationId: 'pi_1', movement: { kind: 'refunded-total', refundedCents: null } },
          },
          {
            type: 'DonationRefunded',
            data: {
              donationId: 'pi_1',
              amountCents: 1250,
              donatedAt: '2026-03-01T10:00:00.000Z',
              at: '2026-03-02T09:00:00.000Z',
            },
          },
          { type: 'DonationWebhookReceived', data: { type: 'donation.refunded' } },
        ],
      });
    await api
      .given()
      .when('GET', '/api/fundraisers/f1/stats', owner)
      .then({
        status: 200,
        body: {
          donations: 1,
          amountRaised: 5,
          daily: [
            { date: '2026-03-01', donations: 2, amountRaised: 17.5 },
            { date: '2026-03-02', donations: -1, amountRaised: -12.5 },
          ],
        },
      });
  });

  it('keeps a refund of a donation not confirmed yet, and applies it with the confirmation', async () => {
    await api
      .given(...fundraiser)
      .when('POST', '/api/webhooks/donations', webhook(refunded({ donationId: 'pi_9', fundraiserId: 'f1', amount: 1 })))
      .then({
        status: 200,
        body: { outcome: 'recorded' },
        events: [{ type: 'DonationMovementRecorded' }, { type: 'DonationWebhookReceived' }],
      });
    await api
      .given()
      .when(
        'POST',
        '/api/webhooks/donations',
        webhook(succeeded({ donationId: 'pi_9', fundraiserId: 'f1', amount: 1 }), 'msg_2'),
      )
      .then({
        status: 200,
        body: { outcome: 'confirmed' },
        events: [
          { type: 'DonationConfirmed', data: { amountCents: 100 } },
          { type: 'DonationRefunded', data: { amountCents: 100, remainingCents: 0 } },
          { type: 'DonationWebhookReceived' },
        ],
      });
    await api
      .given()
      .when('GET', '/api/fundraisers/f1/stats', owner)
      .then({ status: 200, body: { donations: 0, amountRaised: 0 } });
  });

  it('refuses a message naming an unknown fundraiser with 404', async () => {
    await api
      .given(...fundraiser)
      .when('POST', '/api/webhooks/donations', webhook(succeeded({ fundraiserId: 'f9', amount: 1 }), 'msg_2'))
      .then({ status: 404, body: { error: 'Fundraiser not found' }, events: [] });
    await api
      .given()
      .when('POST', '/api/webhooks/donations', webhook(refunded({ donationId: 'pi_8', fundraiserId: 'f9', amount: 1 })))
      .then({ status: 404, body: { error: 'Fundraiser not found' }, events: [] });
  });

  it('refuses what is not signed with the secret, and records nothing', async () => {
    const { rawBody } = webhook(succeeded({ fundraiserId: 'f1', amount: 1 }));
    await api
      .given(...fundraiser)
      .when('POST', '/api/webhooks/donations', { rawBody, headers: { 'content-type': 'application/json' } })
      .then({
        status: 401,
        body: { error: 'The webhook signature was refused: Missing required headers' },
        events: [],
      });
  });
});

describe('GET /api/fundraisers/{id}/stats', () => {
  it('counts confirmed money and older logs as raised, reports apart, a report confirmed early as awaiting nothing', async () => {
    await api
      .given(
        ...fundraiser,
        donationRecorded('f1', 'd-old', 1000),
        donationReported('f1', 'r1', 2000),
        donationReported('f1', 'r2', 300),
        donationConfirmed('f1', 'pi_2', 300, 'r2'),
        donationReportConfirmed('f1', 'r2', 'pi_2', 300),
        // The processor's webhook came first, then the page's report.
        donationConfirmed('f1', 'pi_3', 700, 'r3'),
        donationReportConfirmed('f1', 'r3', 'pi_3', 0),
        donationReported('f1', 'r3', 700, { confirmedBy: 'pi_3' }),
      )
      .when('GET', '/api/fundraisers/f1/stats', owner)
      .then({
        status: 200,
        body: {
          donations: 3,
          amountRaised: 20,
          amountReported: 20,
          daily: [{ date: '2026-03-01', scans: 0, donations: 3, amountRaised: 20 }],
        },
      });
    await api
      .given()
      .when('GET', '/api/user/ada/stats', owner)
      .then({
        status: 200,
        body: {
          totalImpact: 20,
          totalReported: 20,
          fundraiserStats: [{ id: 'f1', amountRaised: 20, amountReported: 20 }],
        },
      });
  });
});

describe('what awaits confirmation', () => {
  // The reports of the history below were made at 2026-03-01T10:00:00Z (given.ts).
  let now = new Date('2026-03-02T09:00:00.000Z');
  const later = apiSpecificationPerTest({ clock: () => now });

  it('counts a report for 24 h from the minute it was made, then no more, with nothing recorded', async () => {
    now = new Date('2026-03-02T10:00:59.999Z');
    await later
      .given(...fundraiser, donationReported('f1', 'r1', 2000), donationReported('f1', 'r2', 300))
      .when('GET', '/api/fundraisers/f1/stats', owner)
      .then({ status: 200, body: { amountReported: 23 }, events: [] });
    now = new Date('2026-03-02T10:01:00.000Z');
    await later
      .given()
      .when('GET', '/api/fundraisers/f1/stats', owner)
      .then({ status: 200, body: { amountReported: 0 }, events: [] });
    await later
      .given()
      .when('GET', '/api/user/ada/stats', owner)
      .then({ status: 200, body: { totalReported: 0, fundraiserStats: [{ id: 'f1', amountReported: 0 }] } });
  });

  it('takes back a settled report from its own minute, whenever it is settled', async () => {
    now = new Date('2026-03-02T09:00:00.000Z');
    await later
      .given(...fundraiser, donationReported('f1', 'r1', 2000), donationReported('f1', 'r2', 300), {
        stream: 'donation-report-r2',
        type: 'DonationReportDropped',
        data: {
          reportId: 'r2',
          fundraiserId: 'f1',
          pendingCents: 300,
          reason: 'payment_failed',
          reportedAt: '2026-03-01T10:00:00.000Z',
          at: '2026-03-02T08:00:00.000Z',
        },
      })
      .when('GET', '/api/fundraisers/f1/stats', owner)
      .then({ status: 200, body: { amountReported: 20 } });
    // Both reports' minute has passed, and the drop's cents went with it: nothing below zero.
    now = new Date('2026-03-02T10:01:00.000Z');
    await later
      .given()
      .when('GET', '/api/fundraisers/f1/stats', owner)
      .then({ status: 200, body: { amountReported: 0 } });
  });
});
