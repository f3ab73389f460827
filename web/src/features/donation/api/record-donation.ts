import { type Donation, donation } from '@qrshirt/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

interface RecordDonationInput {
  fundraiserId: string;
  amount: number;
  /** One per widget message: a retried request records the donation once. */
  idempotencyKey: string;
}

/** POST /api/fundraisers/{id}/donate with the amount the widget reported. */
function recordDonation({ fundraiserId, amount, idempotencyKey }: RecordDonationInput): Promise<Donation> {
  return call('donate', {
    params: { id: fundraiserId },
    body: { amount },
    headers: { 'idempotency-key': idempotencyKey },
    schema: donation,
  });
}

export function useRecordDonation() {
  return useMutation({ mutationFn: recordDonation, retry: 2 });
}
