import { z } from 'zod';

/*
 * GET /api/admin/replay: the donation-history export of `npm run replay-donations`, downloaded
 * from the admin area. Dates are checked by the replay itself (the command line's rules), so
 * here they are only text.
 */

export const adminReplayGroupings = ['day', 'charity', 'fundraiser', 'shirt'] as const;
export type AdminReplayGroupBy = (typeof adminReplayGroupings)[number];

/** The command line also prints a table; a download is a file for a spreadsheet or a script. */
export const adminReplayFormats = ['csv', 'ndjson'] as const;
export type AdminReplayFormat = (typeof adminReplayFormats)[number];

const replayDate = (meaning: string) =>
  z
    .string()
    .max(64)
    .optional()
    .meta({ description: `${meaning}: a UTC day (2025-03-01) or an ISO instant with an offset; empty means no limit` });

export const adminReplayQuery = z.object({
  groupBy: z
    .enum(adminReplayGroupings, { error: `groupBy must be one of ${adminReplayGroupings.join(', ')}` })
    .default('day'),
  format: z
    .enum(adminReplayFormats, { error: `format must be one of ${adminReplayFormats.join(', ')}` })
    .default('csv'),
  from: replayDate('Scans and donations that happened at or after (a day: its start)'),
  to: replayDate('Scans and donations that happened at or before (a day: its end)'),
  asOf: replayDate('Every fundraiser as it stood then: events recorded later are ignored (a day: its end)'),
});
export type AdminReplayQuery = z.input<typeof adminReplayQuery>;
