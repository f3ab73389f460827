import { type AdminCharity, adminCharityList, type CharityStatus } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** GET /api/admin/charities?status=: the charities of one review status, oldest first, with their submitter. */
async function getCharitiesForReview(status: CharityStatus): Promise<AdminCharity[]> {
  const { charities } = await call('listAdminCharities', { query: { status }, schema: adminCharityList });
  return charities;
}

const charitiesForReviewQueryOptions = (status: CharityStatus) =>
  queryOptions({ queryKey: ['admin', 'charities', status], queryFn: () => getCharitiesForReview(status) });

export function useCharitiesForReview(status: CharityStatus) {
  return useQuery(charitiesForReviewQueryOptions(status));
}
