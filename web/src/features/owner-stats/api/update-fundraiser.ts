import { type FundraiserDetails, fundraiserDetails, type UpdateFundraiserRequest } from '@qrshirt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** PATCH /api/fundraisers/{id}: the owner's name, charity and goal for their shirt. */
function updateFundraiser(fundraiserId: string, change: UpdateFundraiserRequest): Promise<FundraiserDetails> {
  return call('updateFundraiser', { params: { id: fundraiserId }, body: change, schema: fundraiserDetails });
}

export function useUpdateFundraiser(fundraiserId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: UpdateFundraiserRequest) => updateFundraiser(fundraiserId, change),
    // The dashboard's list, the QR page and the figures per charity all show what changed.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['user-stats'] }),
        queryClient.invalidateQueries({ queryKey: ['fundraiser', fundraiserId] }),
        queryClient.invalidateQueries({ queryKey: ['fundraiser-stats', fundraiserId] }),
      ]),
  });
}
