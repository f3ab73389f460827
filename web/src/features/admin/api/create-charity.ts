import { type AdminCreateCharityRequest, type Charity, charity } from '@qrshirt/contracts';
import { api } from '@/lib/api-client';
import { publishCharity, usePublishedSave } from './publish-catalog-change';

/** POST /api/admin/charities: a 400 carries each field's problem in the error's `fields`. */
export function createCharity(input: AdminCreateCharityRequest): Promise<Charity> {
  return api('/api/admin/charities', { method: 'POST', body: input, schema: charity, requiresAuth: true });
}

/** Settles once the shop shows the new charity. */
export function useCreateCharity() {
  return usePublishedSave(createCharity, publishCharity);
}
