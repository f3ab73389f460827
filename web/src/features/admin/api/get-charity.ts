import { type Charity, charity } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** GET /api/charity/{id} as the server has it now: never the shop's cached copy. */
function getCharity(charityId: string): Promise<Charity> {
  return call('getCharity', { params: { id: charityId }, schema: charity });
}

const adminCharityQueryOptions = (charityId: string) =>
  queryOptions({ queryKey: ['admin', 'charity', charityId], queryFn: () => getCharity(charityId) });

export function useAdminCharity(charityId: string) {
  return useQuery(adminCharityQueryOptions(charityId));
}
