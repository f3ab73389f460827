import { type Donation, donation } from '@qrshirt/contracts';
import { call } from '@/lib/api-client';

interface RecordDonationInput {
  fundraiserId: string;
  amount: number;
  /** One per widget message: a retried request records the donation once. */
  idempotencyKey: string;
}

/** How often a failed report is sent again: the hook's `retry`, and the landing script's tries. */
export const RETRIES = 2;

/**
 * POST /api/fundraisers/{id}/donate with the amount the widget reported. A module without React:
 * the server-rendered landing's script reports donations too.
 */
export function recordDonation({ fundraiserId, amount, idempotencyKey }: RecordDonationInput): Promise<Donation> {
  return call('donate', {
    params: { id: fundraiserId },
    body: { amount },
    headers: { 'idempotency-key': idempotencyKey },
    schema: donation,
  });
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * recordDonation as the hook sends it, for a page without React (the landing's script): tried
 * again twice on failure, 1 s then 2 s later, as TanStack Query's default delays go. The one
 * idempotency key makes a retry of a report that did arrive record it once.
 */
export async function recordDonationWithRetries(input: RecordDonationInput): Promise<Donation> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await recordDonation(input);
    } catch (error) {
      if (attempt === RETRIES) throw error;
      await wait(1000 * 2 ** attempt);
    }
  }
}
