import { queryOptions, useQuery } from '@tanstack/react-query';
import { getShirts } from './catalog-lists';

export const shirtsQueryOptions = () => queryOptions({ queryKey: ['shirts'], queryFn: getShirts });

export function useShirts() {
  return useQuery(shirtsQueryOptions());
}
