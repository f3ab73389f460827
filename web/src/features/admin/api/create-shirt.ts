import { type AdminCreateShirtRequest, type Shirt, shirt } from '@qrshirt/contracts';
import { call } from '@/lib/api-client';
import { publishShirt, usePublishedSave } from './publish-catalog-change';

/** POST /api/admin/shirts: a 400 carries each field's problem in the error's `fields`. */
function createShirt(input: AdminCreateShirtRequest): Promise<Shirt> {
  return call('adminCreateShirt', { body: input, schema: shirt });
}

/** Settles once the shop shows the new shirt. */
export function useCreateShirt() {
  return usePublishedSave(createShirt, publishShirt);
}
