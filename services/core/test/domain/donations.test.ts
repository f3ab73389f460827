import { confirmedChange, DonationCheckoutCreated, type EventOf, type refundStatuses } from '@qrshirt/contracts';
import { describe, expect, it } from 'vitest';
import { donationReportDecider, reportIdFor } from '../../src/donations/donation-report-decider';
import {
  type ConfirmDonation,
  donationWebhookDecider,
  donationWebhookStreamName,
  type Movement,
  type ProcessorDonationCommand,
  processorDonationDecider,
  type RecordMovements,
} from '../../src/donations/processor-donation-decider';
import { donationReceiptDecider } from '../../src/donations/donation-receipt-decider';
import { foldEvents } from '../../src/kit/fold-events';
import { deciderSpec } from './decider-spec';
import { reportDonation, T0, T1 } from './fixtures';

const T2 = '2025-03-02T09:00:00.000Z';
type RefundStatus = (typeof refundStatuses)[number];

describe('donation report decider', () => {
  const spec = deciderSpec(donationReportDecider);

  const report = reportDonation;

  const reported = (
    amountCents: number,
    idempotencyKey: string | null = null,
    confirmedBy: string | null = null,
    awaiting = confirmedBy === null,
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
      awaiting,
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

  const reportConfirmed = (
    pendingCents: number,
    reportedAt: string | null = T1,
  ): EventOf<'DonationReportConfirmed'> => ({
    type: 'DonationReportConfirmed',
    data: {
      reportId: 'r-1',
      fundraiserId: 'f-1',
      donationId: 'pi_1',
      pendingCents,
      ...(reportedAt !== null && { reportedAt }),
      at: T2,
    },
  });

  const recordCheckout = {
    type: 'RecordCheckout',
    reportId: 'r-1',
    fundraiserId: 'f-1',
    charityId: 'c-1',
    amountCents: 2500,
    sessionId: 'cs_test_1',
    live: true,
    at: T0,
  } as const;

  const checkoutCreated: EventOf<'DonationCheckoutCreated'> = {
    type: 'DonationCheckoutCreated',
    data: {
      reportId: 'r-1',
      fundraiserId: 'f-1',
      charityId: 'c-1',
      amountCents: 2500,
      sessionId: 'cs_test_1',
      live: true,
      at: T0,
    },
  };

  const dropReport = (reason: 'payment_failed' | 'checkout_expired' = 'payment_failed') =>
    ({ type: 'DropReport', reportId: 'r-1', fundraiserId: 'f-1', reason, at: T2 }) as const;

  const reportDropped = (
    pendingCents: number,
    reportedAt: string | null = T1,
    reason: 'payment_failed' | 'checkout_expired' = 'payment_failed',
  ): EventOf<'DonationReportDropped'> => ({
    type: 'DonationReportDropped',
    data: {
      reportId: 'r-1',
      fundraiserId: 'f-1',
      pendingCents,
      reason,
      ...(reportedAt !== null && { reportedAt }),
      at: T2,
    },
  });

  /** The page's report while Stripe takes donations. */
  const reportWithStripe = (amount: unknown, idempotencyKey = 'key-1') => ({
    ...report(amount, idempotencyKey),
    needsCheckout: true,
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
      .then([reportConfirmed(0, null)]);
    spec
      .given([reportConfirmed(0)])
      .when(report(25, 'key-1'))
      .then([reported(2500, 'key-1', 'pi_1')]);
  });

  it("records the product's checkout once, and a report it backs awaits confirmation while Stripe takes donations", () => {
    spec.given([]).when(recordCheckout).then([checkoutCreated]);
    spec
      .given([checkoutCreated])
      .when({ ...recordCheckout, sessionId: 'cs_test_2' })
      .then([]);
    spec
      .given([checkoutCreated])
      .when(reportWithStripe(25))
      .then([reported(2500, 'key-1')]);
  });

  it('records the whole session: its report, fundraiser, charity, amount and mode', () => {
    spec
      .given([])
      .when({ ...recordCheckout, charityId: 'c-2', live: false })
      .then([{ ...checkoutCreated, data: { ...checkoutCreated.data, charityId: 'c-2', live: false } }]);
  });

  it('reads a checkout recorded before its charity and mode were kept: it still backs its report, once', () => {
    const { charityId: _charityId, live: _live, ...older } = checkoutCreated.data;
    const stored = DonationCheckoutCreated.schema.parse(older);
    expect(stored).toEqual(older);
    const recorded: EventOf<'DonationCheckoutCreated'> = { type: 'DonationCheckoutCreated', data: stored };
    spec.given([recorded]).when(recordCheckout).then([]);
    spec
      .given([recorded])
      .when(reportWithStripe(25))
      .then([reported(2500, 'key-1')]);
  });

  it('records a report no checkout backs while Stripe takes donations, awaiting nothing; settled, it takes back nothing', () => {
    spec
      .given([])
      .when(reportWithStripe(25))
      .then([reported(2500, 'key-1', null, false)]);
    spec
      .given([reported(2500, 'key-1', null, false)])
      .when(confirmReport)
      .then([reportConfirmed(0)]);
    spec
      .given([reported(2500, 'key-1', null, false)])
      .when(dropReport())
      .then([reportDropped(0)]);
  });

  it("refuses a report of another amount than its checkout's, under the checkout's key", () => {
    spec
      .given([checkoutCreated])
      .when(reportWithStripe(2500))
      .thenFails('conflict', 'Idempotency-Key was already used with a different amount');
  });

  it('drops a report whose payment will not come, once, taking back what it awaited', () => {
    spec
      .given([checkoutCreated, reported(2500, 'key-1')])
      .when(dropReport())
      .then([reportDropped(2500)]);
    spec
      .given([checkoutCreated, reported(2500, 'key-1'), reportDropped(2500)])
      .when(dropReport('checkout_expired'))
      .then([]);
    // The confirmed money stays: a late word that the payment failed takes nothing back.
    spec
      .given([reported(2500), reportConfirmed(2500)])
      .when(dropReport())
      .then([]);
  });

  it('drops a report before it arrives (its checkout expired), and the report then awaits nothing', () => {
    spec
      .given([checkoutCreated])
      .when(dropReport('checkout_expired'))
      .then([reportDropped(0, null, 'checkout_expired')]);
    spec
      .given([checkoutCreated, reportDropped(0, null, 'checkout_expired')])
      .when(reportWithStripe(25))
      .then([reported(2500, 'key-1', null, false)]);
  });

  it('confirms a dropped report whose money came after all, taking back nothing twice', () => {
    spec
      .given([reported(2500), reportDropped(2500)])
      .when(confirmReport)
      .then([reportConfirmed(0, null)]);
  });

  it('reads a report written before `awaiting` as awaiting unless it arrived confirmed', () => {
    const { awaiting: _awaiting, ...before } = reported(2500).data;
    spec
      .given([{ type: 'DonationReported', data: before }])
      .when(confirmReport)
      .then([reportConfirmed(2500)]);
    spec
      .given([{ type: 'DonationReported', data: { ...before, confirmedBy: 'pi_0' } }])
      .when(dropReport())
      .then([]);
  });

  it('derives one report id per fundraiser and key, shaped as a UUID', () => {
    expect(reportIdFor('f-1', 'key-1')).toBe(reportIdFor('f-1', 'key-1'));
    expect(reportIdFor('f-1', 'key-1')).not.toBe(reportIdFor('f-2', 'key-1'));
    expect(reportIdFor('f-1', 'key-1')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('processor donation decider', () => {
  const spec = deciderSpec(processorDonationDecider);
  const T3 = '2025-03-03T09:00:00.000Z';

  const confirm = (
    amount: unknown = 12.5,
    reportId: string | null = null,
    live = true,
    receiptTo: string | null = null,
  ): ConfirmDonation => ({
    type: 'ConfirmDonation',
    donationId: 'pi_1',
    fundraiserId: 'f-1',
    charityId: 'c-1',
    amount,
    reportId,
    live,
    paidAt: T1,
    receiptTo,
    at: T3,
  });
  const confirmed = (
    amountCents = 1250,
    reportId: string | null = null,
    live = true,
  ): EventOf<'DonationConfirmed'> => ({
    type: 'DonationConfirmed',
    data: {
      donationId: 'pi_1',
      fundraiserId: 'f-1',
      charityId: 'c-1',
      amountCents,
      currency: 'USD',
      reportId,
      live,
      at: T1,
    },
  });
  const move = (movement: Movement, movedAt = T2): RecordMovements => ({
    type: 'RecordMovements',
    donationId: 'pi_1',
    movements: [{ movement, movedAt }],
    at: T3,
  });
  const recorded = (movement: Movement, movedAt = T2): EventOf<'DonationMovementRecorded'> => ({
    type: 'DonationMovementRecorded',
    data: { donationId: 'pi_1', movement, movedAt, at: T3 },
  });
  const refund = (refundId: string, amountCents: number, status: RefundStatus = 'succeeded'): Movement => ({
    kind: 'refund',
    refundId,
    amountCents,
    status,
  });
  const dispute = (disputeId: string, amountCents: number, withdrawn: boolean, won = false): Movement => ({
    kind: 'dispute',
    disputeId,
    amountCents,
    withdrawn,
    won,
  });
  const money = (
    type: 'DonationRefunded' | 'DonationRestored',
    amountCents: number,
    remainingCents: number,
    ids: { refundId?: string; disputeId?: string } = {},
    { at = T2, live = true } = {},
    charityId: string | null = 'c-1',
  ) =>
    ({
      type,
      data: {
        donationId: 'pi_1',
        fundraiserId: 'f-1',
        ...(charityId !== null && { charityId }),
        amountCents,
        currency: 'USD',
        donatedAt: T1,
        remainingCents,
        ...ids,
        live,
        at,
      },
    }) as EventOf<'DonationRefunded'> | EventOf<'DonationRestored'>;

  it('confirms a payment once, on its own date, for the charity it was made to', () => {
    spec
      .given([])
      .when(confirm(12.5, 'r-1'))
      .then([confirmed(1250, 'r-1')]);
    spec.given([confirmed()]).when(confirm()).then([]);
    spec.given([confirmed()]).when(confirm(99)).then([]);
    spec
      .given([])
      .when(confirm(12.5, null, false))
      .then([confirmed(1250, null, false)]);
  });

  it('records the address the donor gave for receipts with the payment, and none when none was given', () => {
    const addressed: EventOf<'DonationReceiptAddressed'> = {
      type: 'DonationReceiptAddressed',
      data: { donationId: 'pi_1', email: 'donor@example.org', at: T3 },
    };
    spec
      .given([])
      .when(confirm(12.5, null, true, 'donor@example.org'))
      .then([confirmed(), addressed]);
    // A repeat of the payment, even with another address, records nothing.
    spec
      .given([confirmed(), addressed])
      .when(confirm(12.5, null, true, 'other@example.org'))
      .then([]);
    // With a refund kept from before the payment: the address, then the money.
    const early = recorded(refund('re_1', 300, 'pending'));
    spec
      .given([early])
      .when(confirm(12.5, null, true, 'donor@example.org'))
      .then([confirmed(), addressed, money('DonationRefunded', 300, 950, { refundId: 're_1' })]);
    expect(foldEvents(processorDonationDecider, [confirmed(), addressed]).receiptTo).toBe('donor@example.org');
    expect(foldEvents(processorDonationDecider, [confirmed()]).receiptTo).toBeNull();
    // Read after the donor was erased, the address is null: nobody to mail.
    const erased = { ...addressed, data: { ...addressed.data, email: null } };
    expect(foldEvents(processorDonationDecider, [confirmed(), erased]).receiptTo).toBeNull();
  });

  it('refuses an amount that is not a positive number of cents', () => {
    spec.given([]).when(confirm(0)).thenFails('validation', 'amount must be a number greater than 0');
    spec.given([]).when(confirm(0.001)).thenFails('validation', 'amount must be at least 0.01');
  });

  it('takes a refund off on its own date, once, and gives it back when it fails', () => {
    spec
      .given([confirmed()])
      .when(move(refund('re_1', 300, 'pending')))
      .then([recorded(refund('re_1', 300, 'pending')), money('DonationRefunded', 300, 950, { refundId: 're_1' })]);
    const refunded = [
      confirmed(),
      recorded(refund('re_1', 300, 'pending')),
      money('DonationRefunded', 300, 950, { refundId: 're_1' }),
    ];
    // Succeeding moves no money; saying it again records nothing.
    spec
      .given(refunded)
      .when(move(refund('re_1', 300)))
      .then([recorded(refund('re_1', 300))]);
    spec
      .given(refunded)
      .when(move(refund('re_1', 300, 'pending')))
      .then([]);
    spec
      .given(refunded)
      .when(move(refund('re_1', 300, 'failed'), T3))
      .then([
        recorded(refund('re_1', 300, 'failed'), T3),
        money('DonationRestored', 300, 1250, { refundId: 're_1' }, { at: T3 }),
      ]);
    // A status never moves back: a late "pending" after the failure changes nothing.
    spec
      .given([confirmed(), recorded(refund('re_1', 300, 'failed'), T3)])
      .when(move(refund('re_1', 300, 'pending')))
      .then([]);
  });

  it('keeps a refund or dispute of a payment not seen yet, and applies it with the payment', () => {
    spec
      .given([])
      .when(move(refund('re_1', 2000)))
      .then([recorded(refund('re_1', 2000))]);
    spec
      .given([recorded(refund('re_1', 2000)), recorded(dispute('dp_1', 1500, true))])
      .when(confirm(50))
      .then([
        confirmed(5000),
        money('DonationRefunded', 1500, 3500, { disputeId: 'dp_1' }),
        money('DonationRefunded', 2000, 1500, { refundId: 're_1' }),
      ]);
  });

  it('withdraws a dispute, and gives it back when it is won, whatever came first', () => {
    spec
      .given([confirmed()])
      .when(move(dispute('dp_1', 500, true)))
      .then([recorded(dispute('dp_1', 500, true)), money('DonationRefunded', 500, 750, { disputeId: 'dp_1' })]);
    spec
      .given([
        confirmed(),
        recorded(dispute('dp_1', 500, true)),
        money('DonationRefunded', 500, 750, { disputeId: 'dp_1' }),
      ])
      .when(move(dispute('dp_1', 500, false, true), T3))
      .then([
        recorded(dispute('dp_1', 500, true, true), T3),
        money('DonationRestored', 500, 1250, { disputeId: 'dp_1' }, { at: T3 }),
      ]);
    // Won before its withdrawal arrived: nothing ever comes off.
    spec
      .given([confirmed(), recorded(dispute('dp_1', 500, false, true), T3)])
      .when(move(dispute('dp_1', 500, true)))
      .then([recorded(dispute('dp_1', 500, true, true))]);
  });

  it('never takes away more than was paid, and counts a donation again when money comes back to it', () => {
    spec
      .given([confirmed(), recorded(refund('re_1', 1000)), money('DonationRefunded', 1000, 250, { refundId: 're_1' })])
      .when(move(dispute('dp_1', 1250, true), T3))
      .then([
        recorded(dispute('dp_1', 1250, true), T3),
        money('DonationRefunded', 250, 0, { disputeId: 'dp_1' }, { at: T3 }),
      ]);
    spec
      .given([
        confirmed(),
        recorded(refund('re_1', 1000)),
        money('DonationRefunded', 1000, 250, { refundId: 're_1' }),
        recorded(dispute('dp_1', 1250, true)),
        money('DonationRefunded', 250, 0, { disputeId: 'dp_1' }),
      ])
      .when(move(refund('re_1', 1000, 'failed'), T3))
      .then([
        recorded(refund('re_1', 1000, 'failed'), T3),
        money('DonationRestored', 1000, 1000, { refundId: 're_1' }, { at: T3 }),
        money('DonationRefunded', 1000, 0, { disputeId: 'dp_1' }),
      ]);
  });

  it("takes a running total's new part off until refunds are named one by one", () => {
    const total = (refundedCents: number | null): Movement => ({ kind: 'refunded-total', refundedCents });
    spec
      .given([confirmed()])
      .when(move(total(300)))
      .then([recorded(total(300)), money('DonationRefunded', 300, 950)]);
    const partly = [confirmed(), recorded(total(300)), money('DonationRefunded', 300, 950)];
    spec
      .given(partly)
      .when(move(total(500)))
      .then([recorded(total(500)), money('DonationRefunded', 200, 750)]);
    // An older total delivered late, or the same again: nothing new.
    spec
      .given(partly)
      .when(move(total(200)))
      .then([]);
    spec
      .given(partly)
      .when(move(total(null)))
      .then([recorded(total(null)), money('DonationRefunded', 950, 0)]);
    // The refund the total counted, named: it takes over from the total.
    spec
      .given(partly)
      .when(move(refund('re_1', 300)))
      .then([
        recorded(refund('re_1', 300)),
        money('DonationRestored', 300, 1250),
        money('DonationRefunded', 300, 950, { refundId: 're_1' }),
      ]);
  });

  it('keeps what refunds and disputes written before the ledger took', () => {
    const { charityId: _c, ...before } = confirmed().data;
    const legacyRefund: EventOf<'DonationRefunded'> = {
      type: 'DonationRefunded',
      data: {
        donationId: 'pi_1',
        fundraiserId: 'f-1',
        amountCents: 300,
        currency: 'USD',
        donatedAt: T1,
        remainingCents: 950,
        at: T2,
      },
    };
    spec
      .given([{ type: 'DonationConfirmed', data: before }, legacyRefund])
      .when(move(dispute('dp_1', 500, true)))
      .then([
        recorded(dispute('dp_1', 500, true)),
        // The payment named no charity.
        money('DonationRefunded', 500, 450, { disputeId: 'dp_1' }, {}, null),
      ]);
    // The refund that running total counted, named now: taken once, not twice.
    spec
      .given([{ type: 'DonationConfirmed', data: before }, legacyRefund])
      .when(move(refund('re_1', 300)))
      .then([
        recorded(refund('re_1', 300)),
        money('DonationRestored', 300, 1250, {}, {}, null),
        money('DonationRefunded', 300, 950, { refundId: 're_1' }, {}, null),
      ]);
  });

  const fee = (
    balanceTransactionId: string,
    amountCents: number,
    to: 'processor' | 'platform' = 'processor',
  ): Movement => ({
    kind: 'fee',
    balanceTransactionId,
    to,
    amountCents,
  });
  const transfer = (transferId: string, amountCents: number): Movement => ({
    kind: 'transfer',
    transferId,
    destination: 'acct_1',
    amountCents,
  });
  const moveAll = (...movements: [Movement, string][]): RecordMovements => ({
    type: 'RecordMovements',
    donationId: 'pi_1',
    movements: movements.map(([movement, movedAt]) => ({ movement, movedAt })),
    at: T3,
  });
  const charged = (
    balanceTransactionId: string,
    amountCents: number,
    { to = 'processor', at = T2 }: { to?: 'processor' | 'platform'; at?: string } = {},
  ): EventOf<'DonationFeeCharged'> => ({
    type: 'DonationFeeCharged',
    data: {
      donationId: 'pi_1',
      fundraiserId: 'f-1',
      charityId: 'c-1',
      balanceTransactionId,
      to,
      amountCents,
      currency: 'USD',
      donatedAt: T1,
      live: true,
      at,
    },
  });

  it("books the charge's fees on their own dates, once, beside the money raised", () => {
    // Stripe's processing fee, the platform's application fee, and the transfer to the charity.
    const settled = moveAll(
      [fee('txn_ch', 175), T2],
      [fee('txn_fee', 250, 'platform'), T3],
      [transfer('tr_1', 5000), T2],
    );
    spec
      .given([confirmed(5000)])
      .when(settled)
      .then([
        recorded(fee('txn_ch', 175)),
        recorded(fee('txn_fee', 250, 'platform'), T3),
        recorded(transfer('tr_1', 5000)),
        charged('txn_ch', 175),
        charged('txn_fee', 250, { to: 'platform', at: T3 }),
      ]);
    const booked = [
      confirmed(5000),
      recorded(fee('txn_ch', 175)),
      recorded(fee('txn_fee', 250, 'platform'), T3),
      recorded(transfer('tr_1', 5000)),
      charged('txn_ch', 175),
      charged('txn_fee', 250, { to: 'platform', at: T3 }),
    ];
    // Another charge.updated naming the same balance transactions records nothing.
    spec.given(booked).when(settled).then([]);
    spec
      .given(booked)
      .when(move(fee('txn_ch', 175)))
      .then([]);
    // A balance transaction never changes: a different word on one already recorded is not taken.
    spec
      .given(booked)
      .when(move(fee('txn_ch', 999)))
      .then([]);
    // One that charged nothing is no movement.
    spec
      .given([confirmed(5000)])
      .when(move(fee('txn_re', 0)))
      .then([]);
  });

  it('keeps a fee of a payment not seen yet, and books it with the payment', () => {
    spec
      .given([])
      .when(moveAll([fee('txn_ch', 175), T2], [transfer('tr_1', 1250), T2]))
      .then([recorded(fee('txn_ch', 175)), recorded(transfer('tr_1', 1250))]);
    spec
      .given([recorded(fee('txn_ch', 175)), recorded(transfer('tr_1', 1250))])
      .when(confirm())
      .then([confirmed(), charged('txn_ch', 175)]);
  });

  it("books a dispute's fee with the dispute, and one given back as a negative fee", () => {
    spec
      .given([confirmed()])
      .when(moveAll([dispute('dp_1', 500, true), T2], [fee('txn_dp_1', 1500), T2]))
      .then([
        recorded(dispute('dp_1', 500, true)),
        recorded(fee('txn_dp_1', 1500)),
        money('DonationRefunded', 500, 750, { disputeId: 'dp_1' }),
        charged('txn_dp_1', 1500),
      ]);
    spec
      .given([
        confirmed(),
        recorded(dispute('dp_1', 500, true)),
        recorded(fee('txn_dp_1', 1500)),
        money('DonationRefunded', 500, 750, { disputeId: 'dp_1' }),
        charged('txn_dp_1', 1500),
      ])
      .when(moveAll([dispute('dp_1', 500, true, true), T3], [fee('txn_dp_1', 1500), T2], [fee('txn_dp_2', -1500), T3]))
      .then([
        recorded(dispute('dp_1', 500, true, true), T3),
        recorded(fee('txn_dp_2', -1500), T3),
        money('DonationRestored', 500, 1250, { disputeId: 'dp_1' }, { at: T3 }),
        charged('txn_dp_2', -1500, { at: T3 }),
      ]);
  });

  it('ends at the same figures, as Stripe counts them, whatever order the same facts arrive in', () => {
    // $50 paid to the charity's account, Stripe's fee $1.75 and the platform's $2.50; $20
    // refunded; a $15 dispute opened, its funds withdrawn with Stripe's $15 dispute fee, then
    // reinstated; a $5 refund that failed.
    const facts: ProcessorDonationCommand[] = [
      confirm(50),
      moveAll([fee('txn_ch', 175), T1], [fee('txn_fee', 250, 'platform'), T1], [transfer('tr_1', 5000), T1]),
      move(refund('re_1', 2000)),
      move(dispute('dp_1', 1500, false)),
      moveAll([dispute('dp_1', 1500, true), T2], [fee('txn_dp_w', 1500), T2]),
      moveAll([dispute('dp_1', 1500, true, true), T3], [fee('txn_dp_w', 1500), T2], [fee('txn_dp_r', 0), T3]),
      move(refund('re_2', 500, 'pending')),
      move(refund('re_2', 500, 'failed'), T3),
    ];
    // Stripe's balance transactions of the same story, on the platform's account and the charity's.
    const stripe = {
      payment: [
        { type: 'charge', amount: 5000, fee: 175 },
        { type: 'refund', amount: -2000, fee: 0 },
        { type: 'adjustment', amount: -1500, fee: 1500 },
        { type: 'adjustment', amount: 1500, fee: 0 },
        { type: 'refund', amount: -500, fee: 0 },
        { type: 'refund_failure', amount: 500, fee: 0 },
      ],
      connect: [
        { type: 'transfer', amount: -5000, fee: 0 },
        { type: 'application_fee', amount: 250, fee: 0 },
        // The charity's own balance: the transfer in, the platform's share out.
        { type: 'payment', amount: 5000, fee: 0 },
        { type: 'application_fee', amount: -250, fee: 0 },
      ],
    };
    const sum = (list: { amount: number; fee: number }[], of: 'amount' | 'fee') =>
      list.reduce((total, transaction) => total + transaction[of], 0);
    const all = [...stripe.payment, ...stripe.connect];
    const expected = {
      amountRaised: sum(stripe.payment, 'amount'),
      fees: sum(all, 'fee'),
      platformFees: sum(
        stripe.connect.filter(({ type, amount }) => type === 'application_fee' && amount > 0),
        'amount',
      ),
      net: sum(all, 'amount') - sum(all, 'fee'),
      donations: 1,
    };
    expect(expected).toEqual({ amountRaised: 3000, fees: 1675, platformFees: 250, net: 1325, donations: 1 });
    const outcomes = new Map<string, number>();
    const charities = new Set<string | undefined>();
    for (const order of permutations(facts)) {
      let state = processorDonationDecider.initialState();
      const figures = { amountRaised: 0, fees: 0, platformFees: 0, net: 0, donations: 0 };
      for (const command of [...order, ...order]) {
        for (const event of processorDonationDecider.decide(command, state)) {
          state = processorDonationDecider.evolve(state, event);
          const change = confirmedChange(event);
          if (change) {
            figures.amountRaised += change.amountCents;
            figures.net += change.amountCents;
            figures.donations += change.donations;
            charities.add(change.charityId);
          }
          if (event.type === 'DonationFeeCharged') {
            charities.add(event.data.charityId);
            if (event.data.to === 'platform') figures.platformFees += event.data.amountCents;
            else {
              figures.fees += event.data.amountCents;
              figures.net -= event.data.amountCents;
            }
          }
        }
      }
      // Counted rather than asserted 40,320 times: vitest's expect would take most of the time.
      const outcome = JSON.stringify(figures);
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
    expect([...outcomes]).toEqual([[JSON.stringify(expected), 40_320]]);
    expect([...charities]).toEqual(['c-1']);
  });
});

function* permutations<T>(items: T[]): Generator<T[]> {
  if (items.length <= 1) {
    yield items;
    return;
  }
  for (let i = 0; i < items.length; i++) {
    const rest = [...items.slice(0, i), ...items.slice(i + 1)];
    for (const tail of permutations(rest)) yield [items[i]!, ...tail];
  }
}

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

describe('donation receipt decider', () => {
  const spec = deciderSpec(donationReceiptDecider);
  const record = (countsCents: number) => ({ type: 'RecordReceipt', donationId: 'pi_1', countsCents, at: T2 }) as const;
  const mailed = (countsCents: number): EventOf<'DonationReceiptMailed'> => ({
    type: 'DonationReceiptMailed',
    data: { donationId: 'pi_1', countsCents, at: T2 },
  });

  it('records the first receipt, then one each time what the donation counts changes', () => {
    spec
      .given([])
      .when(record(1250))
      .then([mailed(1250)]);
    spec
      .given([mailed(1250)])
      .when(record(950))
      .then([mailed(950)]);
    // Given back after a refund failed: the figure of an earlier receipt, but a change since the last.
    spec
      .given([mailed(1250), mailed(950)])
      .when(record(1250))
      .then([mailed(1250)]);
    expect(foldEvents(donationReceiptDecider, [mailed(1250), mailed(950)])).toEqual({ mailed: 2, countsCents: 950 });
  });

  it('records nothing when the last receipt says it already: a step that moves no money, a repeat', () => {
    spec
      .given([mailed(1250)])
      .when(record(1250))
      .then([]);
    spec
      .given([mailed(1250), mailed(0)])
      .when(record(0))
      .then([]);
  });
});
