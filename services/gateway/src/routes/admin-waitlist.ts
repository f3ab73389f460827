import type { AdminWaitlistStats } from '@qrshirt/contracts';
import { createWaitlistEntries } from '../admin/waitlist-entries';
import { csvLine } from '../http/csv';
import type { Handlers } from '../http/route-table';
import type { RouteDeps } from './route-deps';

const CSV_COLUMNS = ['joinedAt', 'name', 'email', 'size', 'shirtId', 'shirtName', 'charityId', 'charityName'] as const;

/** Counts as the public GET /api/waitlist has them, plus entries with names and emails, for admins only. */
export function adminWaitlistHandlers({
  eventStore,
  catalog,
  waitlist,
  clock,
}: RouteDeps): Pick<Handlers, 'getAdminWaitlistStats' | 'listWaitlistEntries' | 'downloadWaitlistCsv'> {
  const entries = createWaitlistEntries({ eventStore, catalog });
  return {
    async getAdminWaitlistStats() {
      const [stats, shirts, charities] = await Promise.all([
        waitlist.getStats(),
        catalog.listShirts(),
        catalog.listCharities(),
      ]);
      const answer: AdminWaitlistStats = {
        ...stats,
        shirtNames: Object.fromEntries(shirts.map((shirt) => [shirt.id, shirt.name])),
        charityNames: Object.fromEntries(charities.map((charity) => [charity.id, charity.name])),
      };
      return { status: 200, body: answer };
    },
    async listWaitlistEntries({ query }) {
      return { status: 200, body: await entries.page(query) };
    },
    async downloadWaitlistCsv({ res }) {
      const day = clock().toISOString().slice(0, 10);
      res.type('text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="waitlist-${day}.csv"`);
      res.setHeader('Cache-Control', 'no-store');
      // A byte-order mark, so spreadsheets read the names as UTF-8.
      res.write(`\uFEFF${csvLine(CSV_COLUMNS)}`);
      for await (const page of entries.all()) {
        // The admin cancelled the download: read no further pages.
        if (res.destroyed) return;
        res.write(page.map((entry) => csvLine(CSV_COLUMNS.map((column) => entry[column] ?? ''))).join(''));
      }
      res.end();
    },
  };
}
