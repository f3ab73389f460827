import { type AdminUpdateCharityRequest, type AdminCharityDetails, adminCharityDetails } from '@qrshirt/contracts';
import { call } from '@/lib/api-client';
import { publishCharityForAdmin, usePublishedSave } from './publish-catalog-change';

/** PUT /api/admin/charities/{id}: only the fields given change. */
function updateCharity(charityId: string, changes: AdminUpdateCharityRequest): Promise<AdminCharityDetails> {
  return call('adminUpdateCharity', { params: { id: charityId }, body: changes, schema: adminCharityDetails });
}

/** Settles once the admins' list and the shop show the change. */
export function useUpdateCharity() {
  return usePublishedSave(
    ({ charityId, changes }: { charityId: string; changes: AdminUpdateCharityRequest }) =>
      updateCharity(charityId, changes),
    publishCharityForAdmin,
  );
}
