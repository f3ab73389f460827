import { type AdminUpdateShirtRequest, type Shirt, shirt } from '@qrshirt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { publishShirt } from './publish-catalog-change';

/** PUT /api/admin/shirts/{id}: only the fields given change. */
export function updateShirt(shirtId: string, changes: AdminUpdateShirtRequest): Promise<Shirt> {
  return api(`/api/admin/shirts/${encodeURIComponent(shirtId)}`, {
    method: 'PUT',
    body: changes,
    schema: shirt,
    requiresAuth: true,
  });
}

/** Settles once the shop shows the change. */
export function useUpdateShirt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ shirtId, changes }: { shirtId: string; changes: AdminUpdateShirtRequest }) => {
      const updated = await updateShirt(shirtId, changes);
      await publishShirt(queryClient, updated);
      return updated;
    },
  });
}
