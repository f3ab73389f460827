import type { AdminReplayQuery } from '@qrshirt/contracts';
import { useMutation } from '@tanstack/react-query';
import { callResponse } from '@/lib/api-client';
import { saveDownload } from './save-download';

/** GET /api/admin/replay: the donation history replayed from the event log, saved as the file the server names. */
function downloadReplay(query: AdminReplayQuery): Promise<string> {
  const given = (value: string | undefined) => value?.trim() || undefined;
  const { groupBy, format, from, to, asOf } = query;
  return saveDownload(
    callResponse('downloadReplay', { query: { groupBy, format, from: given(from), to: given(to), asOf: given(asOf) } }),
    `donations.${format ?? 'csv'}`,
  );
}

export function useDownloadReplay() {
  return useMutation({ mutationFn: downloadReplay });
}
