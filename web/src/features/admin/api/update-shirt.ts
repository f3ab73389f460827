import { type AdminUpdateShirtRequest, type Shirt, shirt } from '@qrshirt/contracts';
import { call } from '@/lib/api-client';
import { publishShirt, usePublishedSave } from './publish-catalog-change';

/** PUT /api/admin/shirts/{id}: only the fields given change. */
function updateShirt(shirtId: string, changes: AdminUpdateShirtRequest): Promise<Shirt> {
  return call('adminUpdateShirt', { params: { id: shirtId }, body: changes, schema: shirt });
}

/** Settles once the shop shows the change. */
export function useUpdateShirt() {
  return usePublishedSave(
    ({ shirtId, changes }: { shirtId: string; changes: AdminUpdateShirtRequest }) => updateShirt(shirtId, changes),
    publishShirt,
  );
}
