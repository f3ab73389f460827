import { type User, user } from '@qrshirt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import { profileQueryOptions } from './get-daily-summary';

/** PATCH /api/user/{id} with the daily summary choice only. */
function setDailySummary(uid: string, dailySummary: boolean): Promise<User> {
  return call('updateProfile', { params: { id: uid }, body: { dailySummary }, schema: user });
}

export function useSetDailySummary(uid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (dailySummary: boolean) => setDailySummary(uid, dailySummary),
    onSuccess: (profile) => queryClient.setQueryData(profileQueryOptions(uid).queryKey, profile),
  });
}
