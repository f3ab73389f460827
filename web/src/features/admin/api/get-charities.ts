import { type Charity, charityList } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** GET /api/charities as the server has it now: the admin edits the list, so never the local cache's copy. */
function getCharities(): Promise<Charity[]> {
  return call('listCharities', { schema: charityList });
}

const adminCharitiesQueryOptions = () => queryOptions({ queryKey: ['admin', 'charities'], queryFn: getCharities });

export function useAdminCharities() {
  return useQuery(adminCharitiesQueryOptions());
}
