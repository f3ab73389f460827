import { queryOptions, useQuery } from '@tanstack/react-query';
import { getCharities } from './catalog-lists';

export const charitiesQueryOptions = () => queryOptions({ queryKey: ['charities'], queryFn: getCharities });

export function useCharities({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...charitiesQueryOptions(), enabled });
}
