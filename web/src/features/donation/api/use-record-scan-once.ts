import { useEffect, useRef } from 'react';
import { recordScan } from './record-scan';

/**
 * Records one scan per visit when asked to (the QR code's URL carries scan=true), then calls
 * `onRecorded` so the page can drop the flag: a reload or a shared link does not count again.
 * Failures are only logged (spec section 8).
 */
export function useRecordScanOnce(fundraiserId: string | undefined, isScan: boolean, onRecorded: () => void): void {
  const recorded = useRef<string | null>(null);
  useEffect(() => {
    if (!fundraiserId || !isScan || recorded.current === fundraiserId) return;
    recorded.current = fundraiserId;
    recordScan(fundraiserId).then(onRecorded, (error: unknown) => console.warn('Recording the scan failed', error));
  }, [fundraiserId, isScan, onRecorded]);
}
