import type {
  AdminWaitlistEntry,
  AdminWaitlistStats,
  FulfilledWaitlistEntry,
  adminWaitlistRoutes,
} from '@qrshirt/contracts';
import type { FulfilledEntry } from '@qrshirt/core';
import { createWaitlistEntries } from './waitlist-entries';
import { csvLine } from '../http/csv';
import type { HandlersOf } from '../http/route-table';
import { fundraiserShortUrl } from '../qr/fundraiser-qr';
import { renderQrSheet } from '../qr/qr-sheet';
import type { RouteDeps } from '../route-deps';

const CSV_COLUMNS = [
  'joinedAt',
  'name',
  'email',
  'size',
  'shirtId',
  'shirtName',
  'charityId',
  'charityName',
  'status',
  'fundraiserId',
] as const;

/** A removed entry's name and email read "(erased)", as on the admin screen, not as if never given. */
function csvCell(entry: AdminWaitlistEntry, column: (typeof CSV_COLUMNS)[number]): string {
  const value = entry[column];
  if (value !== null) return value;
  return column === 'name' || column === 'email' ? '(erased)' : '';
}

/**
 * Counts as the public GET /api/waitlist has them, plus entries with names, emails and statuses,
 * for admins only; and fulfilling them.
 */
export function adminWaitlistHandlers({
  catalog,
  waitlist,
  waitlistEntries,
  useCases,
  publicBaseUrl,
  clock,
}: RouteDeps): HandlersOf<typeof adminWaitlistRoutes> {
  const { fulfilment } = useCases;
  const entries = createWaitlistEntries({ entries: waitlistEntries, catalog });

  /** A fulfilled entry's answer: its fundraiser and where to get the QR code to print. */
  const withQr = ({ entryId, fundraiser, shortCode }: FulfilledEntry): FulfilledWaitlistEntry => {
    const path = `/api/fundraisers/${encodeURIComponent(fundraiser.id)}`;
    return {
      entryId,
      status: 'fulfilled',
      fundraiser,
      qr: { svg: `${path}/qr.svg`, png: `${path}/qr.png`, target: fundraiserShortUrl(publicBaseUrl, shortCode) },
    };
  };
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
    async listWaitlistEntries({ query, user }) {
      await useCases.adminAudit.record(user.uid, 'list-waitlist-entries', query);
      return { status: 200, body: await entries.page(query) };
    },
    async downloadWaitlistCsv({ res, user }) {
      await useCases.adminAudit.record(user.uid, 'download-waitlist-csv', {});
      const day = clock().toISOString().slice(0, 10);
      res.type('text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="waitlist-${day}.csv"`);
      res.setHeader('Cache-Control', 'no-store');
      // A byte-order mark, so spreadsheets read the names as UTF-8.
      res.write(`\uFEFF${csvLine(CSV_COLUMNS)}`);
      for await (const page of entries.all()) {
        // The admin cancelled the download: read no further pages.
        if (res.destroyed) return;
        res.write(page.map((entry) => csvLine(CSV_COLUMNS.map((column) => csvCell(entry, column)))).join(''));
      }
      res.end();
    },
    async fulfilWaitlistEntry({ params }) {
      return { status: 201, body: withQr(await fulfilment.fulfil(params.entryId)) };
    },
    async reissueClaimLink({ params }) {
      return { status: 200, body: withQr(await fulfilment.reissueClaimLink(params.entryId)) };
    },
    async fulfilWaitlistBatch({ body, res }) {
      const fulfilled = await fulfilment.fulfilWaiting(body.shirtId, body.size);
      const shirtName = (await catalog.getShirt(body.shirtId))?.name ?? body.shirtId;
      const sheet = await renderQrSheet({
        publicBaseUrl,
        title: `${shirtName}, size ${body.size}: ${fulfilled.length} QR codes`,
        codes: fulfilled.map(({ shortCode, size }) => ({
          shortCode,
          caption: `${shirtName} - ${size}`,
        })),
      });
      const day = clock().toISOString().slice(0, 10);
      res.type('application/pdf');
      // Only letters, digits, '-' and '_' in a header's file name; the size is free text and stays out.
      const fileName = `qr-codes-${body.shirtId.replace(/[^A-Za-z0-9_-]/g, '-')}-${day}.pdf`;
      res.setHeader('Content-Disposition', `attachment; filename="${fileName}"`);
      res.setHeader('Cache-Control', 'no-store');
      res.end(Buffer.from(sheet));
    },
  };
}
