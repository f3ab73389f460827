import {
  type AdminCharityDetails,
  adminCharityDetails,
  adminCharityList,
  type Charity,
  charity,
  type Shirt,
  shirt,
} from '@qrshirt/contracts';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { cacheKeys, clearCharityCaches, removeCached } from '@/lib/cache';

/** How long a change may take to reach the shop's read model before the form stops waiting. */
const CATCH_UP_TIMEOUT_MS = 5_000;
const POLL_MS = 100;

/**
 * The admin API answers once a change is an event; the shop reads the catalogue projection, which
 * follows a moment later. Waits until a read of it equals the saved answer: clearing the browser's
 * caches before the shop shows it would let the shop cache the old answer again, for up to an hour.
 */
async function waitUntilShown<T>(read: () => Promise<T>, saved: T): Promise<void> {
  const expected = JSON.stringify(saved);
  const deadline = Date.now() + CATCH_UP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    try {
      if (JSON.stringify(await read()) === expected) return;
    } catch {
      // A new item is not in the read model yet (404): ask again.
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Spec section 9: a changed charity clears the charity caches, so the shop's selector shows it. */
export async function publishCharity(queryClient: QueryClient, saved: Charity): Promise<void> {
  await waitUntilShown(() => call('getCharity', { params: { id: saved.id }, schema: charity }), saved);
  clearCharityCaches();
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: ['charities'] }),
    queryClient.invalidateQueries({ queryKey: ['charity', saved.id] }),
    queryClient.invalidateQueries({ queryKey: ['admin'] }),
  ]);
}

/**
 * An admin's save of a charity: first the admins' list shows it, legal name and tax id included,
 * which the shop never shows; it reads the same projection as the shop, which shows it then too.
 */
export async function publishCharityForAdmin(queryClient: QueryClient, saved: AdminCharityDetails): Promise<void> {
  await waitUntilShown(async () => {
    const { charities } = await call('listAdminCharities', { query: { status: 'approved' }, schema: adminCharityList });
    return adminCharityDetails.parse(charities.find(({ id }) => id === saved.id));
  }, saved);
  await publishCharity(queryClient, charity.parse(saved));
}

/** The shirt list and the shirt's own entry leave the caches, so the shop shows the change. */
export async function publishShirt(queryClient: QueryClient, saved: Shirt): Promise<void> {
  await waitUntilShown(() => call('getShirt', { params: { id: saved.id }, schema: shirt }), saved);
  removeCached(cacheKeys.shirts);
  removeCached(cacheKeys.shirt(saved.id));
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: ['shirts'] }),
    queryClient.invalidateQueries({ queryKey: ['shirt', saved.id] }),
    queryClient.invalidateQueries({ queryKey: ['admin'] }),
  ]);
}

/** A catalogue save whose mutation settles only once the shop shows what was saved. */
export function usePublishedSave<Input, Saved>(
  save: (input: Input) => Promise<Saved>,
  publish: (queryClient: QueryClient, saved: Saved) => Promise<void>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: Input) => {
      const saved = await save(input);
      await publish(queryClient, saved);
      return saved;
    },
  });
}
