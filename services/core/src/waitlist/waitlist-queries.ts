import type { WaitlistStats } from '@qrshirt/contracts';
import { waitlistKeys, waitlistProjector } from './waitlist-projector';
import type { ReadModelStore } from '../ports/read-model-store';

const counts = (hash: Record<string, string>) =>
  Object.fromEntries(Object.entries(hash).map(([field, value]) => [field, Number(value)]));

export function createWaitlistQueries(store: ReadModelStore) {
  const waitlist = store.projection(waitlistProjector.name);
  return {
    async getStats(): Promise<WaitlistStats> {
      const [totals = {}, byShirt = {}, bySize = {}, byCharity = {}] = await waitlist.hgetallMany([
        waitlistKeys.totals,
        waitlistKeys.byShirt,
        waitlistKeys.bySize,
        waitlistKeys.byCharity,
      ]);
      const shirtIds = Object.keys(byShirt);
      const sizes = await waitlist.hgetallMany(shirtIds.map(waitlistKeys.sizesOfShirt));
      return {
        total: Number(totals.total ?? 0),
        byShirt: counts(byShirt),
        bySize: counts(bySize),
        byCharity: counts(byCharity),
        byShirtAndSize: Object.fromEntries(shirtIds.map((id, index) => [id, counts(sizes[index] ?? {})])),
      };
    },
  };
}
export type WaitlistQueries = ReturnType<typeof createWaitlistQueries>;
