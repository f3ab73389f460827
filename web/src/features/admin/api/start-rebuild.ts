import { type RebuildStatus, rebuildStatus } from '@qrshirt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { rebuildQueryOptions } from './get-rebuild';

/** POST /api/admin/projections/{name}/rebuild: starts a blue/green rebuild (409 while one runs). */
function startRebuild(name: string): Promise<RebuildStatus> {
  return call('startRebuild', { params: { name }, schema: rebuildStatus });
}

export function useStartRebuild() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startRebuild,
    onSuccess: (status) => {
      // The progress poll starts from this answer instead of waiting for its first fetch.
      queryClient.setQueryData(rebuildQueryOptions(status.projection).queryKey, status);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'projections'] });
    },
  });
}
