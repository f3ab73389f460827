import type { FulfilWaitlistBatchRequest } from '@qrshirt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callResponse } from '@/lib/api-client';
import { saveBlob } from '@/lib/save-file';

const fileSafe = (text: string) => text.replace(/[^A-Za-z0-9_-]+/g, '-');

/**
 * POST /api/admin/waitlist/fulfil: fulfils every waiting entry of the shirt in the size and saves
 * the PDF sheet of their QR codes. Named here rather than by the server, whose name leaves out the
 * size: two sizes of one shirt printed on one day would otherwise get the same file name.
 */
async function downloadQrSheet(request: FulfilWaitlistBatchRequest): Promise<string> {
  const response = await callResponse('fulfilWaitlistBatch', { body: request });
  const name = `qr-sheet-${fileSafe(request.shirtId)}-${fileSafe(request.size)}.pdf`;
  saveBlob(await response.blob(), name);
  return name;
}

export function useDownloadQrSheet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: downloadQrSheet,
    // The entries printed are fulfilled now; after a 409 others were, meanwhile.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin', 'waitlist', 'entries'] }),
  });
}
