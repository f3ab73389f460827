import { type RebuildStatus, rebuildStatus } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

const POLL_MS = 500;

/** GET /api/admin/projections/{name}/rebuild: progress of the last rebuild started from this gateway. */
function getRebuild(name: string): Promise<RebuildStatus> {
  return call('getRebuild', { params: { name }, schema: rebuildStatus });
}

/** Polled while the rebuild runs, then left alone. */
export const rebuildQueryOptions = (name: string) =>
  queryOptions({
    queryKey: ['admin', 'rebuild', name],
    queryFn: () => getRebuild(name),
    refetchInterval: (query) => (query.state.data?.state === 'running' ? POLL_MS : false),
  });

/** `started`: the projection list names a rebuild, or this page started one (else the server answers 404). */
export function useRebuild(name: string, started: boolean) {
  return useQuery({ ...rebuildQueryOptions(name), enabled: started });
}
