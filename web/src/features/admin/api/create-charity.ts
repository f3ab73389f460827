import { type AdminCreateCharityRequest, type Charity, charity } from '@qrshirt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { publishCharity } from './publish-catalog-change';

/** POST /api/admin/charities: a 400 carries each field's problem in the error's `fields`. */
export function createCharity(input: AdminCreateCharityRequest): Promise<Charity> {
  return api('/api/admin/charities', { method: 'POST', body: input, schema: charity, requiresAuth: true });
}

/** Settles once the shop shows the new charity. */
export function useCreateCharity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: AdminCreateCharityRequest) => {
      const created = await createCharity(input);
      await publishCharity(queryClient, created);
      return created;
    },
  });
}
