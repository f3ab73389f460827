import type { AdminReplayFormat, adminReplayRoutes } from '@qrshirt/contracts';
import {
  ReplayArgumentError,
  type ReplayWindow,
  formatReplay,
  replayDonations,
  replayWindow,
} from '@qrshirt/projections';
import { HttpError } from '../http/http-error';
import type { HandlersOf } from '../http/route-table';
import type { RouteDeps } from '../route-deps';

const contentTypes: Record<AdminReplayFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

/** The command line's date rules, with the URL's parameter names in the messages. */
function windowOf(texts: {
  from?: string | undefined;
  to?: string | undefined;
  asOf?: string | undefined;
}): ReplayWindow {
  try {
    return replayWindow(texts);
  } catch (error) {
    if (error instanceof ReplayArgumentError) throw new HttpError(400, error.message);
    throw error;
  }
}

/**
 * The analysts' export, the same bytes `npm run replay-donations` writes: replayed from this
 * gateway's event store (never the read models) up to the head it had when the request came.
 * The audit trail records the download, with its parameters, before the log is read.
 */
export function adminReplayHandlers({ eventStore, clock, useCases }: RouteDeps): HandlersOf<typeof adminReplayRoutes> {
  return {
    async downloadReplay({ query, res, user }) {
      const { groupBy, format, ...dates } = query;
      const window = windowOf(dates);
      await useCases.adminAudit.record(user.uid, 'download-replay', query);
      // A long replay whose download was cancelled stops reading the log at its next page.
      const cancelled = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) cancelled.abort();
      });
      let text: string;
      try {
        const result = await replayDonations({
          eventStore,
          groupBy,
          window,
          onProgress: () => cancelled.signal.throwIfAborted(),
        });
        text = formatReplay(result, format);
      } catch (error) {
        if (cancelled.signal.aborted) return;
        throw error;
      }
      const day = clock().toISOString().slice(0, 10);
      res.setHeader('Content-Type', contentTypes[format]);
      res.setHeader('Content-Disposition', `attachment; filename="donations-by-${groupBy}-${day}.${format}"`);
      res.setHeader('Cache-Control', 'no-store');
      res.send(text);
    },
  };
}
