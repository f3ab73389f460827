import { z } from 'zod';
import { isoInstant } from '../events/define-event';
import { defineRoutes, unauthenticated } from '../route';
import { errorAnswer } from './errors';

/*
 * GET /api/admin/reconcile: `npm run reconcile` in the admin area, the ledger beside Stripe's
 * balance transactions and Connect transfers for a period. Dates are checked by the replay's
 * rules, so here they are only text.
 */

const reconcileDate = (meaning: string) =>
  z
    .string({ error: `${meaning.split(' ')[0]} is required` })
    .max(64)
    .meta({ description: `${meaning}: a UTC day (2025-03-01) or an ISO instant with an offset` });

export const adminReconcileQuery = z.object({
  from: reconcileDate('from: the first instant compared (a day: its start)'),
  to: reconcileDate('to: the last instant compared (a day: its end)'),
});
export type AdminReconcileQuery = z.input<typeof adminReconcileQuery>;

export const reconcileFigures = ['gross', 'refunds', 'disputes', 'fees', 'platformFees', 'transfers'] as const;

export const reconcileDifference = z
  .object({
    subject: z.enum(['payment', 'charity']),
    /** The payment (Stripe's `pi_…`), or the connected account transferred to (`acct_…`). */
    id: z.string(),
    /** The charity whose connected account it is; null for a payment, or an account of no charity here. */
    charityId: z.string().nullable(),
    figure: z.enum(reconcileFigures),
    /** Dollars, as the ledger counts them in the period. */
    ledger: z.number(),
    /** Dollars, as Stripe's books count them in the period. */
    stripe: z.number(),
  })
  .meta({ id: 'ReconcileDifference' });
export type ReconcileDifference = z.infer<typeof reconcileDifference>;

export const adminReconciliation = z
  .object({
    from: isoInstant,
    to: isoInstant,
    /** Live money (Stripe's live keys), or test money. */
    live: z.boolean(),
    /** Payments either side names in the period. */
    payments: z.number().int().nonnegative(),
    /** Connected accounts either side transferred to in the period. */
    accounts: z.number().int().nonnegative(),
    /** Stripe's balance transactions of no payment (payouts, transfers, its own fees), not compared. */
    others: z.number().int().nonnegative(),
    /** Empty when the two agree. */
    differences: z.array(reconcileDifference),
  })
  .meta({ id: 'AdminReconciliation' });
export type AdminReconciliation = z.infer<typeof adminReconciliation>;

export const adminReconcileRoutes = defineRoutes({
  reconcile: {
    method: 'get',
    path: '/api/admin/reconcile',
    summary:
      "The ledger beside Stripe's balance transactions (per payment) and Connect transfers (per charity) for a " +
      'period, as `npm run reconcile` compares them',
    auth: 'admin',
    query: adminReconcileQuery,
    answers: {
      200: { description: 'Every difference, none when the two agree', schema: adminReconciliation },
      400: { description: 'A missing or unreadable date, or `to` before `from`', schema: errorAnswer },
      401: unauthenticated,
      403: { description: 'Not an admin', schema: errorAnswer },
      502: { description: 'Stripe refused or failed to list its books', schema: errorAnswer },
      503: { description: 'Stripe is not configured (STRIPE_SECRET_KEY and the others unset)', schema: errorAnswer },
      504: { description: 'Stripe did not answer in time', schema: errorAnswer },
    },
  },
});
