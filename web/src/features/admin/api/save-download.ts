import { saveBlob } from '@/lib/save-file';

/** The file name the server suggests in Content-Disposition, else the fallback. */
function downloadName(response: Response, fallback: string): string {
  const disposition = response.headers.get('Content-Disposition') ?? '';
  return /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallback;
}

/**
 * Downloads an admin export. A plain link cannot carry the bearer token (and a token in the URL
 * would end up in logs), so the file is fetched with the usual headers and handed to the browser.
 */
export async function saveDownload(download: Promise<Response>, fallbackName: string): Promise<string> {
  const response = await download;
  const name = downloadName(response, fallbackName);
  saveBlob(await response.blob(), name);
  return name;
}
