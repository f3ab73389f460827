import { type AdminUpdateShirtRequest, type Shirt, shirt } from '@qrshirt/contracts';
import { api } from '@/lib/api-client';
import { publishShirt, usePublishedSave } from './publish-catalog-change';

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
  return usePublishedSave(
    ({ shirtId, changes }: { shirtId: string; changes: AdminUpdateShirtRequest }) => updateShirt(shirtId, changes),
    publishShirt,
  );
}
