import { SCAN_RECORDED } from './scan-recorded';

/*
 * The server-rendered landing's first script, loaded with `async` so it runs as soon as it
 * arrives, before the page's own JavaScript: a QR code's visit (`?scan=true`) is recorded once,
 * then the flag leaves the address as the app's landing does, so a reload or a shared link does
 * not count again. Plain fetch, nothing imported: a scan must not wait for the app. Failures are
 * only logged (spec section 8).
 */
const address = new URL(window.location.href);
const fundraiserId = /^\/fundraiser\/([^/]+)$/.exec(address.pathname)?.[1];
if (fundraiserId && address.searchParams.get('scan') === 'true') {
  const api = String(import.meta.env.VITE_API_URL ?? '').trim();
  fetch(`${api}/api/fundraisers/${fundraiserId}/scan`, { method: 'POST' })
    .then((answer) => {
      if (!answer.ok) throw new Error(`the API answered ${answer.status}`);
      const now = new URL(window.location.href);
      now.searchParams.delete('scan');
      window.history.replaceState(window.history.state, '', `${now.pathname}${now.search}${now.hash}`);
      window.dispatchEvent(new Event(SCAN_RECORDED));
    })
    .catch((error: unknown) => console.warn('Recording the scan failed', error));
}
