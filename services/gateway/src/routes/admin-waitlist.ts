import { type AdminWaitlistStats, adminWaitlistEntriesQuery } from '@qrshirt/contracts';
import { Router } from 'express';
import { createWaitlistEntries } from '../admin/waitlist-entries';
import { csvLine } from '../http/csv';
import { parseInput } from '../http/validate';
import type { RouteDeps } from './route-deps';

const CSV_COLUMNS = ['joinedAt', 'name', 'email', 'size', 'shirtId', 'shirtName', 'charityId', 'charityName'] as const;

/** Counts as the public GET /api/waitlist has them, plus entries with names and emails, for admins only. */
export function adminWaitlistRoutes({ eventStore, catalog, waitlist, clock }: RouteDeps): Router {
  const entries = createWaitlistEntries({ eventStore, catalog });
  return Router()
    .get('/api/admin/waitlist', async (_req, res) => {
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
      res.json(answer);
    })
    .get('/api/admin/waitlist/entries', async (req, res) => {
      res.json(await entries.page(parseInput(adminWaitlistEntriesQuery, req.query)));
    })
    .get('/api/admin/waitlist/entries.csv', async (_req, res) => {
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
    });
}
