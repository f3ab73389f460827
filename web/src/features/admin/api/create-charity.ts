import { type AdminCreateCharityRequest, type AdminCharityDetails, adminCharityDetails } from '@qrshirt/contracts';
import { call } from '@/lib/api-client';
import { publishCharityForAdmin, usePublishedSave } from './publish-catalog-change';

/** POST /api/admin/charities: a 400 carries each field's problem in the error's `fields`. */
function createCharity(input: AdminCreateCharityRequest): Promise<AdminCharityDetails> {
  return call('adminCreateCharity', { body: input, schema: adminCharityDetails });
}

/** Settles once the admins' list and the shop show the new charity. */
export function useCreateCharity() {
  return usePublishedSave(createCharity, publishCharityForAdmin);
}
