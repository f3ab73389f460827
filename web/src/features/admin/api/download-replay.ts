import type { AdminReplayQuery } from '@qrshirt/contracts';
import { useMutation } from '@tanstack/react-query';
import { saveDownload } from './save-download';

/** GET /api/admin/replay: the donation history replayed from the event log, saved as the file the server names. */
export function downloadReplay(query: AdminReplayQuery): Promise<string> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (typeof value === 'string' && value.trim()) params.set(name, value.trim());
  }
  return saveDownload(`/api/admin/replay?${params}`, `donations.${query.format ?? 'csv'}`);
}

export function useDownloadReplay() {
  return useMutation({ mutationFn: downloadReplay });
}
