import { type AdminUpdateCharityRequest, type Charity, charity } from '@qrshirt/contracts';
import { call } from '@/lib/api-client';
import { publishCharity, usePublishedSave } from './publish-catalog-change';

/** PUT /api/admin/charities/{id}: only the fields given change. */
function updateCharity(charityId: string, changes: AdminUpdateCharityRequest): Promise<Charity> {
  return call('adminUpdateCharity', { params: { id: charityId }, body: changes, schema: charity });
}

/** Settles once the shop shows the change. */
export function useUpdateCharity() {
  return usePublishedSave(
    ({ charityId, changes }: { charityId: string; changes: AdminUpdateCharityRequest }) =>
      updateCharity(charityId, changes),
    publishCharity,
  );
}
