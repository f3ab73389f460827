import type { AdminWaitlistEntriesPage, AdminWaitlistEntry } from '@qrshirt/contracts';
import type { CatalogQueries, WaitlistEntriesQueries, WaitlistEntryView } from '@qrshirt/core';

/**
 * Waitlist entries with names and emails (null once their person removed the entry, which erased
 * them), for admins only: from fulfilment's read model, which keeps them sealed as the log does.
 * Newest first, a page at a time.
 */
export function createWaitlistEntries({
  entries,
  catalog,
}: {
  entries: Pick<WaitlistEntriesQueries, 'page'>;
  catalog: CatalogQueries;
}) {
  async function names() {
    const [shirts, charities] = await Promise.all([catalog.listShirts(), catalog.listCharities()]);
    return {
      shirts: new Map(shirts.map((shirt) => [shirt.id, shirt.name])),
      charities: new Map(charities.map((charity) => [charity.id, charity.name])),
    };
  }

  function toEntry(
    { entry, status, fundraiserId }: WaitlistEntryView,
    named: Awaited<ReturnType<typeof names>>,
  ): AdminWaitlistEntry {
    const { entryId, name, email, size, charityId, shirtId, at } = entry;
    return {
      id: entryId,
      name,
      email,
      size,
      charityId,
      charityName: named.charities.get(charityId) ?? null,
      shirtId,
      shirtName: named.shirts.get(shirtId) ?? null,
      joinedAt: at,
      status,
      fundraiserId,
    };
  }

  async function read(
    after: number | undefined,
    limit: number,
    given?: Awaited<ReturnType<typeof names>>,
  ): Promise<AdminWaitlistEntriesPage> {
    const [page, named] = await Promise.all([entries.page({ after, limit }), given ?? names()]);
    return { entries: page.entries.map((view) => toEntry(view, named)), next: page.next };
  }

  return {
    page: (options: { after?: number; limit: number }) => read(options.after, options.limit),
    /** Every entry, newest first, a page at a time (the CSV export streams them). */
    async *all(pageSize = 1000): AsyncGenerator<AdminWaitlistEntry[]> {
      let after: number | undefined;
      // The names once for the whole export, not once a page.
      const named = await names();
      do {
        const page = await read(after, pageSize, named);
        yield page.entries;
        after = page.next ?? undefined;
      } while (after !== undefined);
    },
  };
}
