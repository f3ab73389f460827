import type { EventOf } from '@qrshirt/contracts';
import { describe, expect, it } from 'vitest';
import { donationReportDecider, reportIdFor } from '../../src/donations/donation-report-decider';
import {
  type ConfirmDonation,
  donationWebhookDecider,
  donationWebhookStreamName,
  processorDonationDecider,
} from '../../src/donations/processor-donation-decider';
import { deciderSpec } from './decider-spec';
import { reportDonation, T0, T1 } from './fixtures';

const T2 = '2025-03-02T09:00:00.000Z';

describe('donation report decider', () => {
  const spec = deciderSpec(donationReportDecider);

  const report = reportDonation;

  const reported = (
    amountCents: number,
    idempotencyKey: string | null = null,
    confirmedBy: string | null = null,
  ): EventOf<'DonationReported'> => ({
    type: 'DonationReported',
    data: {
      reportId: 'r-1',
      fundraiserId: 'f-1',
      amountCents,
      currency: 'USD',
      source: 'widget',
      idempotencyKey,
      confirmedBy,
      at: T1,
    },
  });

  const confirmReport = {
    type: 'ConfirmReport',
    reportId: 'r-1',
    fundraiserId: 'f-1',
    donationId: 'pi_1',
    at: T2,
  } as const;

  const reportConfirmed = (pendingCents: number): EventOf<'DonationReportConfirmed'> => ({
    type: 'DonationReportConfirmed',
    data: { reportId: 'r-1', fundraiserId: 'f-1', donationId: 'pi_1', pendingCents, at: T2 },
  });

  it.each([
    [5, 500],
    ['5', 500],
    ['"12.50"', 1250],
    ["'7'", 700],
    [' 3.5 ', 350],
    [19.99, 1999],
    ['19.99', 1999],
    [0.1 + 0.2, 30],
    // Half a cent rounds away from zero, read from the decimal digits rather than the float.
    [1.005, 101],
    ['1.005', 101],
    ['1.0049', 100],
    ['19.999', 2000],
    ['.5', 50],
    [1_000_000, 100_000_000],
  ])('reports %j as %i cents, awaiting confirmation', (amount, cents) => {
    spec
      .given([])
      .when(report(amount))
      .then([reported(cents)]);
  });

  it.each([
    ['0'],
    [0],
    [-3],
    ['-3'],
    ['abc'],
    ['12abc'],
    ['1e3'],
    ['0x10'],
    [''],
    ['""'],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [null],
    [true],
    [{ amount: 5 }],
  ])('refuses %j', (amount) => {
    spec.given([]).when(report(amount)).thenFails('validation', 'amount must be a number greater than 0');
  });

  it.each([[1e12], ['1000000.01'], [1e25]])('refuses %j as too large', (amount) => {
    spec.given([]).when(report(amount)).thenFails('validation', 'amount must be at most 1000000');
  });

  it.each([[0.004], ['0.001'], [1e-7]])('refuses %j as less than a cent', (amount) => {
    spec.given([]).when(report(amount)).thenFails('validation', 'amount must be at least 0.01');
  });

  it('records nothing new when a request is retried with the same key and amount', () => {
    spec
      .given([reported(2500, 'key-1')])
      .when(report(25, 'key-1'))
      .then([]);
  });

  it('refuses a key reused with a different amount', () => {
    spec
      .given([reported(2500, 'key-1')])
      .when(report(26, 'key-1'))
      .thenFails('conflict', 'Idempotency-Key was already used with a different amount');
  });

  it('confirms a report once, taking its amount off what awaits confirmation', () => {
    spec
      .given([reported(2500)])
      .when(confirmReport)
      .then([reportConfirmed(2500)]);
    spec
      .given([reported(2500), reportConfirmed(2500)])
      .when(confirmReport)
      .then([]);
    spec
      .given([reported(2500), reportConfirmed(2500)])
      .when({ ...confirmReport, donationId: 'pi_2' })
      .then([]);
  });

  it('takes a confirmation that overtook its report, and the report then awaits nothing', () => {
    spec
      .given([])
      .when(confirmReport)
      .then([reportConfirmed(0)]);
    spec
      .given([reportConfirmed(0)])
      .when(report(25, 'key-1'))
      .then([reported(2500, 'key-1', 'pi_1')]);
  });

  it('derives one report id per fundraiser and key, shaped as a UUID', () => {
    expect(reportIdFor('f-1', 'key-1')).toBe(reportIdFor('f-1', 'key-1'));
    expect(reportIdFor('f-1', 'key-1')).not.toBe(reportIdFor('f-2', 'key-1'));
    expect(reportIdFor('f-1', 'key-1')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('processor donation decider', () => {
  const spec = deciderSpec(processorDonationDecider);

  const confirm = (amount: unknown = 12.5, reportId: string | null = null, live = true): ConfirmDonation => ({
    type: 'ConfirmDonation',
    donationId: 'pi_1',
    fundraiserId: 'f-1',
    amount,
    reportId,
    live,
    at: T1,
  });
  const confirmed = (
    amountCents = 1250,
    reportId: string | null = null,
    live = true,
  ): EventOf<'DonationConfirmed'> => ({
    type: 'DonationConfirmed',
    data: { donationId: 'pi_1', fundraiserId: 'f-1', amountCents, currency: 'USD', reportId, live, at: T1 },
  });
  const refund = { type: 'RefundDonation', donationId: 'pi_1', at: T2 } as const;
  const refundedAs = (live: boolean): EventOf<'DonationRefunded'> => ({
    type: 'DonationRefunded',
    data: {
      donationId: 'pi_1',
      fundraiserId: 'f-1',
      amountCents: 1250,
      currency: 'USD',
      donatedAt: T1,
      remainingCents: 0,
      live,
      at: T2,
    },
  });
  const refunded = refundedAs(true);
  /** `amountCents` of the $12.50 donation comes off, `remainingCents` still counts. */
  const subtracted = (
    amountCents: number,
    remainingCents: number,
    disputeId?: string,
  ): EventOf<'DonationRefunded'> => ({
    type: 'DonationRefunded',
    data: {
      donationId: 'pi_1',
      fundraiserId: 'f-1',
      amountCents,
      currency: 'USD',
      donatedAt: T1,
      remainingCents,
      ...(disputeId !== undefined && { disputeId }),
      live: true,
      at: T2,
    },
  });
  const refundUpTo = (refundedCents: number) => ({ ...refund, refundedCents });
  const dispute = (disputeId: string, amountCents: number) =>
    ({ type: 'WithdrawDisputedFunds', donationId: 'pi_1', disputeId, amountCents, at: T2 }) as const;

  it('records whether the money is live, and its refund follows the donation', () => {
    spec
      .given([])
      .when(confirm(12.5, null, false))
      .then([confirmed(1250, null, false)]);
    spec
      .given([confirmed(1250, null, false)])
      .when(refund)
      .then([refundedAs(false)]);
    const { live: _written, ...before } = confirmed().data;
    spec
      .given([{ type: 'DonationConfirmed', data: before }])
      .when(refund)
      .then([refunded]);
  });

  it('confirms a donation once, whatever repeats it', () => {
    spec
      .given([])
      .when(confirm(12.5, 'r-1'))
      .then([confirmed(1250, 'r-1')]);
    spec.given([confirmed()]).when(confirm()).then([]);
    spec.given([confirmed()]).when(confirm(99)).then([]);
  });

  it('refuses an amount that is not a positive number of cents', () => {
    spec.given([]).when(confirm(0)).thenFails('validation', 'amount must be a number greater than 0');
    spec.given([]).when(confirm(0.001)).thenFails('validation', 'amount must be at least 0.01');
  });

  it('refunds a confirmed donation once, as confirmed, from the day it counted', () => {
    spec.given([confirmed()]).when(refund).then([refunded]);
    spec.given([confirmed(), refunded]).when(refund).then([]);
    spec.given([confirmed(), refunded]).when(confirm()).then([]);
  });

  it('does not know a refund of a donation never confirmed', () => {
    spec.given([]).when(refund).thenFails('not_found', 'Donation not found');
    spec.given([]).when(dispute('dp_1', 500)).thenFails('not_found', 'Donation not found');
  });

  it('takes off only what is new of a running refund total, so partial refunds then a full one take it once', () => {
    spec
      .given([confirmed()])
      .when(refundUpTo(300))
      .then([subtracted(300, 950)]);
    spec
      .given([confirmed(), subtracted(300, 950)])
      .when(refundUpTo(500))
      .then([subtracted(200, 750)]);
    // Stripe sends the same total again (a retry under a new event id): nothing new.
    spec
      .given([confirmed(), subtracted(300, 950), subtracted(200, 750)])
      .when(refundUpTo(500))
      .then([]);
    spec
      .given([confirmed(), subtracted(300, 950), subtracted(200, 750)])
      .when(refundUpTo(1250))
      .then([subtracted(750, 0)]);
    spec
      .given([confirmed(), subtracted(300, 950), subtracted(200, 750), subtracted(750, 0)])
      .when(refundUpTo(1250))
      .then([]);
    // A whole refund after a partial one takes the rest.
    spec
      .given([confirmed(), subtracted(300, 950)])
      .when(refund)
      .then([subtracted(950, 0)]);
  });

  it('withdraws a dispute once, never more than still counts', () => {
    spec
      .given([confirmed()])
      .when(dispute('dp_1', 500))
      .then([subtracted(500, 750, 'dp_1')]);
    spec
      .given([confirmed(), subtracted(500, 750, 'dp_1')])
      .when(dispute('dp_1', 500))
      .then([]);
    spec
      .given([confirmed(), subtracted(1000, 250)])
      .when(dispute('dp_2', 1250))
      .then([subtracted(250, 0, 'dp_2')]);
    spec.given([confirmed(), refunded]).when(dispute('dp_2', 1250)).then([]);
    // A dispute's withdrawal is not a refund: Stripe's refund total still counts from 0.
    spec
      .given([confirmed(), subtracted(500, 750, 'dp_1')])
      .when(refundUpTo(300))
      .then([subtracted(300, 450)]);
  });
});

describe('donation webhook decider', () => {
  const spec = deciderSpec(donationWebhookDecider);
  const record = {
    type: 'RecordWebhook',
    webhookId: 'msg_1',
    webhookType: 'donation.succeeded',
    donationId: 'pi_1',
    at: T0,
  } as const;
  const received: EventOf<'DonationWebhookReceived'> = {
    type: 'DonationWebhookReceived',
    data: { webhookId: 'msg_1', type: 'donation.succeeded', donationId: 'pi_1', at: T0 },
  };

  it('remembers a message id once', () => {
    spec.given([]).when(record).then([received]);
    spec.given([received]).when(record).then([]);
  });

  it('names streams by a hash of the id, whatever text the processor chose', () => {
    expect(donationWebhookStreamName('msg 1/../x')).toMatch(/^donation-webhook-[0-9a-f]{64}$/);
    expect(donationWebhookStreamName('a')).not.toBe(donationWebhookStreamName('b'));
  });
});
