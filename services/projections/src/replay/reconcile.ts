import { type DomainEvent, type EventType, readEvent } from '@qrshirt/contracts';
import type { EventStore } from '@qrshirt/core';

/** One payment's money in a period, in cents, as the ledger or the processor counts it. */
export interface PaymentMoney {
  gross: number;
  /** Refunds less the ones that failed. */
  refunds: number;
  /** Disputed funds withdrawn less those given back. */
  disputes: number;
}

export interface ReconcileWindow {
  /** Inclusive, in ms since the epoch. */
  from: number;
  to: number;
}

const ledgerTypes: readonly EventType[] = ['DonationConfirmed', 'DonationRefunded', 'DonationRestored'];

const noMoney = (): PaymentMoney => ({ gross: 0, refunds: 0, disputes: 0 });

/**
 * The ledger's money per processor payment (`donationId`: a Stripe PaymentIntent) in the window,
 * each movement on the processor's date, for one mode: live money, or the processor's test money.
 */
export async function ledgerByPayment(
  eventStore: EventStore,
  window: ReconcileWindow,
  live: boolean,
): Promise<Map<string, PaymentMoney>> {
  const payments = new Map<string, PaymentMoney>();
  const head = await eventStore.headPosition();
  let after = 0;
  while (after < head) {
    const page = await eventStore.readAll({ after, maxCount: 1_000, eventTypes: ledgerTypes });
    for (const stored of page) {
      if (stored.globalPosition > head) break;
      let event: DomainEvent;
      try {
        event = readEvent(stored.type, stored.data, stored.metadata);
      } catch {
        // Skipped as the projectors and the replay skip it: counting it would disagree with them.
        continue;
      }
      if (
        event.type !== 'DonationConfirmed' &&
        event.type !== 'DonationRefunded' &&
        event.type !== 'DonationRestored'
      ) {
        continue;
      }
      const { donationId, amountCents, at } = event.data;
      const time = Date.parse(at);
      if ((event.data.live !== false) !== live || time < window.from || time > window.to) continue;
      const money = payments.get(donationId) ?? noMoney();
      payments.set(donationId, money);
      if (event.type === 'DonationConfirmed') money.gross += amountCents;
      else {
        const sign = event.type === 'DonationRefunded' ? 1 : -1;
        if (event.data.disputeId === undefined) money.refunds += sign * amountCents;
        else money.disputes += sign * amountCents;
      }
    }
    const last = page.at(-1);
    after = last === undefined || page.length < 1_000 ? head : last.globalPosition;
  }
  return payments;
}

export interface Difference {
  paymentId: string;
  figure: keyof PaymentMoney;
  ledger: number;
  processor: number;
}

/** Every figure of every payment on which the ledger and the processor disagree, by payment id. */
export function differences(
  ledger: ReadonlyMap<string, PaymentMoney>,
  processor: ReadonlyMap<string, PaymentMoney>,
): Difference[] {
  const ids = [...new Set([...ledger.keys(), ...processor.keys()])].sort();
  const found: Difference[] = [];
  for (const paymentId of ids) {
    const ours = ledger.get(paymentId) ?? noMoney();
    const theirs = processor.get(paymentId) ?? noMoney();
    for (const figure of ['gross', 'refunds', 'disputes'] as const) {
      if (ours[figure] !== theirs[figure]) {
        found.push({ paymentId, figure, ledger: ours[figure], processor: theirs[figure] });
      }
    }
  }
  return found;
}
