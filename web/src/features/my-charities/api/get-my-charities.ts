import { type OwnCharityList, ownCharityList } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** GET /api/user/{id}/charities: the charities the signed-in member submitted, with their review. */
function getMyCharities(uid: string): Promise<OwnCharityList> {
  return call('listOwnCharities', { params: { id: uid }, schema: ownCharityList });
}

const myCharitiesQueryOptions = (uid: string) =>
  queryOptions({ queryKey: ['my-charities', uid], queryFn: () => getMyCharities(uid) });

export function useMyCharities(uid: string) {
  return useQuery(myCharitiesQueryOptions(uid));
}
