import { type FulfilledWaitlistEntry, fulfilledWaitlistEntry } from '@qrshirt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/**
 * POST /api/admin/waitlist/entries/{entryId}/claim-link: mails a fulfilled entry's person a new
 * claim link, which replaces the earlier one (409 once claimed).
 */
function reissueClaimLink(entryId: string): Promise<FulfilledWaitlistEntry> {
  return call('reissueClaimLink', { params: { entryId }, schema: fulfilledWaitlistEntry });
}

export function useReissueClaimLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reissueClaimLink,
    // A 409 means the person claimed meanwhile: the list should show it.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin', 'waitlist', 'entries'] }),
  });
}
