import { personalDataExport } from '@qrshirt/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { saveBlob } from '@/lib/save-file';

/**
 * GET /api/user/{id}/export: what the shop holds about the signed-in user, saved as a JSON file.
 * Fetched with the session's token (a plain link could not carry it) and checked against its
 * contract, then handed to the browser; answers the file's name.
 */
async function downloadMyData(uid: string): Promise<string> {
  const data = await call('exportUserData', { params: { id: uid }, schema: personalDataExport });
  const name = `qrshirts-data-${uid}.json`;
  saveBlob(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }), name);
  return name;
}

export function useDownloadMyData(uid: string) {
  return useMutation({ mutationFn: () => downloadMyData(uid) });
}
