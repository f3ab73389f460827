import { charity, type CharityWithStatus, charityWithStatus } from '@qrshirt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { publishCharity } from './publish-catalog-change';

/** POST /api/admin/charities/{id}/approve: the charity goes into the shop. */
function approveCharity(charityId: string): Promise<CharityWithStatus> {
  return call('approveCharity', { params: { id: charityId }, schema: charityWithStatus });
}

/** Settles once the shop shows the charity (and the cached charity lists are gone). */
export function useApproveCharity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (charityId: string) => {
      const approved = await approveCharity(charityId);
      await publishCharity(queryClient, charity.parse(approved));
      return approved;
    },
  });
}
