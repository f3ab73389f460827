// Before any schema is built: the pages' Content-Security-Policy forbids the eval zod would try.
import './zod-jitless';
import { recordScan } from '@/features/donation/api/record-scan';
import { initAuth } from '@/lib/auth/auth-lifecycle';
import { SCAN_RECORDED } from './scan-recorded';

/**
 * The server-rendered landing's scan, sent as the app's calls go (spec section 7): as JSON, with
 * the visitor's session in its headers, which the session it starts here gives (the page's
 * hydration later finds it started). Once recorded, the flag leaves the address as the app's
 * landing drops it, so a reload or a shared link does not count again. Failures are only logged
 * (spec section 8).
 */
export async function recordLandingScan(fundraiserId: string): Promise<void> {
  void initAuth();
  try {
    await recordScan(fundraiserId);
  } catch (error) {
    console.warn('Recording the scan failed', error);
    return;
  }
  const now = new URL(window.location.href);
  now.searchParams.delete('scan');
  window.history.replaceState(window.history.state, '', `${now.pathname}${now.search}${now.hash}`);
  window.dispatchEvent(new Event(SCAN_RECORDED));
}
