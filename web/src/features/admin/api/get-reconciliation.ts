import { type AdminReconcileQuery, type AdminReconciliation, adminReconciliation } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** GET /api/admin/reconcile: the ledger beside Stripe's books for the period. */
function getReconciliation(query: AdminReconcileQuery): Promise<AdminReconciliation> {
  return call('reconcile', { query, schema: adminReconciliation });
}

const reconciliationQueryOptions = (query: AdminReconcileQuery) =>
  queryOptions({ queryKey: ['admin', 'reconcile', query], queryFn: () => getReconciliation(query) });

/** Asked once a period is chosen: every comparison is a round of Stripe's API. */
export function useReconciliation(query: AdminReconcileQuery | null) {
  return useQuery({
    ...reconciliationQueryOptions(query ?? { from: '', to: '' }),
    enabled: query !== null,
    // Stripe's books of a closed period do not change while the page is open.
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}
