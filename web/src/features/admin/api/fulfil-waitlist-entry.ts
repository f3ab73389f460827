import { type AdminWaitlistEntriesPage, type FulfilledWaitlistEntry, fulfilledWaitlistEntry } from '@qrshirt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

const ENTRIES_KEY = ['admin', 'waitlist', 'entries'];

/**
 * POST /api/admin/waitlist/entries/{entryId}/fulfil: a fundraiser for the entry, owned by nobody
 * until its person claims it with the link mailed to them (409 once fulfilled).
 */
function fulfilWaitlistEntry(entryId: string): Promise<FulfilledWaitlistEntry> {
  return call('fulfilWaitlistEntry', { params: { entryId }, schema: fulfilledWaitlistEntry });
}

export function useFulfilWaitlistEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fulfilWaitlistEntry,
    // The row says fulfilled at once, so its button cannot be pressed a second time meanwhile.
    onSuccess: ({ entryId, fundraiser }) =>
      queryClient.setQueriesData<AdminWaitlistEntriesPage>({ queryKey: ENTRIES_KEY }, (page) =>
        page
          ? {
              ...page,
              entries: page.entries.map((entry) =>
                entry.id === entryId ? { ...entry, status: 'fulfilled', fundraiserId: fundraiser.id } : entry,
              ),
            }
          : page,
      ),
    // Also after a 409: the entry was fulfilled elsewhere, and the list should say so.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ENTRIES_KEY }),
  });
}
