import type { AdminReconciliation, adminReconcileRoutes } from '@qrshirt/contracts';
import { type Difference, ReplayArgumentError, reconcileWithProcessor, replayWindow } from '@qrshirt/projections';
import { HttpError } from '../http/http-error';
import type { HandlersOf } from '../http/route-table';
import type { RouteDeps } from '../route-deps';
import type { AdminDeps } from './admin-deps';

const dollars = (cents: number) => cents / 100;

const answered = (difference: Difference): AdminReconciliation['differences'][number] =>
  difference.subject === 'payment'
    ? {
        subject: 'payment',
        id: difference.paymentId,
        charityId: null,
        figure: difference.figure,
        ledger: dollars(difference.ledger),
        stripe: dollars(difference.processor),
      }
    : {
        subject: 'charity',
        id: difference.account,
        charityId: difference.charityId,
        figure: difference.figure,
        ledger: dollars(difference.ledger),
        stripe: dollars(difference.processor),
      };

/**
 * `npm run reconcile` for the admin area: the same comparison (projections' reconcileWithProcessor)
 * of this gateway's event store with Stripe's books, in the mode of its keys.
 */
export function adminReconcileHandlers({
  eventStore,
  admin,
}: RouteDeps & { admin: AdminDeps }): HandlersOf<typeof adminReconcileRoutes> {
  return {
    async reconcile({ query }) {
      let window: { from: number; to: number };
      try {
        const { from, to } = replayWindow(query);
        if (from === undefined || to === undefined) throw new ReplayArgumentError('from and to are required');
        window = { from, to };
      } catch (error) {
        if (error instanceof ReplayArgumentError) throw new HttpError(400, error.message);
        throw error;
      }
      const stripe = admin.stripeBooks;
      if (!stripe)
        throw new HttpError(503, 'Reconciling needs Stripe, which is not configured here (STRIPE_SECRET_KEY)');
      const found = await reconcileWithProcessor({ eventStore, processor: stripe.books, window, live: stripe.live });
      const body: AdminReconciliation = {
        from: new Date(window.from).toISOString(),
        to: new Date(window.to).toISOString(),
        live: stripe.live,
        payments: found.payments,
        accounts: found.accounts,
        others: found.others,
        differences: found.differences.map(answered),
      };
      return { status: 200, body };
    },
  };
}
