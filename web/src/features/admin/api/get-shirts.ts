import { type Shirt, shirtList } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** GET /api/shirts as the server has it now: the admin edits the list, so never the local cache's copy. */
function getShirts(): Promise<Shirt[]> {
  return call('listShirts', { schema: shirtList });
}

const adminShirtsQueryOptions = () => queryOptions({ queryKey: ['admin', 'shirts'], queryFn: getShirts });

export function useAdminShirts() {
  return useQuery(adminShirtsQueryOptions());
}
