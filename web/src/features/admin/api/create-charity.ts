import { type AdminCreateCharityRequest, type Charity, charity } from '@qrshirt/contracts';
import { call } from '@/lib/api-client';
import { publishCharity, usePublishedSave } from './publish-catalog-change';

/** POST /api/admin/charities: a 400 carries each field's problem in the error's `fields`. */
function createCharity(input: AdminCreateCharityRequest): Promise<Charity> {
  return call('adminCreateCharity', { body: input, schema: charity });
}

/** Settles once the shop shows the new charity. */
export function useCreateCharity() {
  return usePublishedSave(createCharity, publishCharity);
}
