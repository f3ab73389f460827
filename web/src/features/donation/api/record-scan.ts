import { scanAccepted, type ScanAccepted } from '@qrshirt/contracts';
import { call } from '@/lib/api-client';

/**
 * POST /api/fundraisers/{id}/scan (no body). A module without React: the server-rendered landing's
 * script sends it too.
 */
export function recordScan(fundraiserId: string): Promise<ScanAccepted> {
  return call('recordScan', { params: { id: fundraiserId }, schema: scanAccepted });
}
