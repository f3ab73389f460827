import { type CharityWithStatus, charityWithStatus } from '@qrshirt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/admin/charities/{id}/reject: stays out of the shop; its submitter sees the reason. */
export function rejectCharity(charityId: string, reason: string): Promise<CharityWithStatus> {
  return api(`/api/admin/charities/${encodeURIComponent(charityId)}/reject`, {
    method: 'POST',
    body: { reason },
    schema: charityWithStatus,
    requiresAuth: true,
  });
}

export function useRejectCharity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ charityId, reason }: { charityId: string; reason: string }) => rejectCharity(charityId, reason),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'charities'] }),
  });
}
