import { useMutation } from '@tanstack/react-query';
import { RETRIES, recordDonation } from './record-donation';

export function useRecordDonation() {
  return useMutation({ mutationFn: recordDonation, retry: RETRIES });
}
