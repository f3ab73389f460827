import { type Fundraiser, fundraiser } from '@qrshirt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** POST /api/claims: the signed-in person becomes the owner of the shirt the link was mailed for. */
function createClaim(token: string): Promise<Fundraiser> {
  return call('createClaim', { body: { token }, schema: fundraiser });
}

export function useCreateClaim() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createClaim,
    // The dashboard lists the shirt at once.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
