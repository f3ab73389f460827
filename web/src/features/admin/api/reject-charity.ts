import { type CharityWithStatus, charityWithStatus } from '@qrshirt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** POST /api/admin/charities/{id}/reject: stays out of the shop; its submitter sees the reason. */
function rejectCharity(charityId: string, reason: string): Promise<CharityWithStatus> {
  return call('rejectCharity', { params: { id: charityId }, body: { reason }, schema: charityWithStatus });
}

export function useRejectCharity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ charityId, reason }: { charityId: string; reason: string }) => rejectCharity(charityId, reason),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'charities'] }),
  });
}
