import { useMutation } from '@tanstack/react-query';
import { callResponse } from '@/lib/api-client';
import { saveDownload } from './save-download';

/** GET /api/admin/waitlist/entries.csv: every entry, saved as the file the server names. */
function downloadWaitlistCsv(): Promise<string> {
  return saveDownload(callResponse('downloadWaitlistCsv'), 'waitlist.csv');
}

export function useDownloadWaitlistCsv() {
  return useMutation({ mutationFn: downloadWaitlistCsv });
}
