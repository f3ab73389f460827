import type { ChargeSettlements, DatedMovement } from '@qrshirt/core';
import type { Logger } from 'pino';
import Stripe from 'stripe';
import { HttpError } from '../http/http-error';
import { timedOut } from './stripe-client';

/**
 * The donations feature's port to a settled charge, filled with Stripe: the webhook's charge
 * names its balance transaction, application fee and transfer without carrying them, so the
 * charge is retrieved with the three expanded (one call, the process's client and its timeout).
 * Stripe failing or not answering is a 502 or 504, which Stripe's next delivery retries. Without
 * Stripe (null), it answers 503.
 */
export function createStripeChargeSettlements(stripe: Stripe | null, log: Logger): ChargeSettlements {
  return {
    async settlement(chargeId) {
      if (!stripe) throw new HttpError(503, 'Stripe is not configured (STRIPE_SECRET_KEY)');
      let charge: Stripe.Charge;
      try {
        charge = await stripe.charges.retrieve(chargeId, {
          expand: ['balance_transaction', 'application_fee', 'transfer'],
        });
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeError)) throw error;
        log.error({ err: error, chargeId }, "Stripe did not describe a charge's balance");
        throw new HttpError(timedOut(error) ? 504 : 502, `Stripe did not describe the charge: ${error.message}`);
      }
      return chargeMovements(charge);
    },
  };
}

/** What the charge's expanded balance transaction, application fee and transfer say, each on its own date. */
function chargeMovements(charge: Stripe.Charge): DatedMovement[] {
  const movements: DatedMovement[] = [];
  const { balance_transaction: balance, application_fee: applicationFee, transfer } = charge;
  if (balance !== null && typeof balance === 'object') {
    // A direct charge's fee would hold the platform's share too, which its application fee books.
    const platformShare = balance.fee_details
      .filter((detail) => detail.type === 'application_fee')
      .reduce((sum, detail) => sum + detail.amount, 0);
    movements.push({
      movement: {
        kind: 'fee',
        balanceTransactionId: balance.id,
        to: 'processor',
        amountCents: balance.fee - platformShare,
      },
      movedAt: isoOf(balance.created),
    });
  }
  if (applicationFee !== null && typeof applicationFee === 'object') {
    movements.push({
      movement: {
        kind: 'fee',
        balanceTransactionId: idOf(applicationFee.balance_transaction) ?? applicationFee.id,
        to: 'platform',
        amountCents: applicationFee.amount,
      },
      movedAt: isoOf(applicationFee.created),
    });
  }
  if (typeof transfer === 'object' && transfer.destination !== null && transfer.amount > 0) {
    movements.push({
      movement: {
        kind: 'transfer',
        transferId: transfer.id,
        destination: idOf(transfer.destination)!,
        amountCents: transfer.amount,
      },
      movedAt: isoOf(transfer.created),
    });
  }
  return movements;
}

/** Stripe's dates are Unix seconds. */
const isoOf = (seconds: number): string => new Date(seconds * 1000).toISOString();

/** An id Stripe may send expanded into its object. */
const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);
