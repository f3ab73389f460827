import { type AdminOutboxMessage, adminOutboxMessage } from '@qrshirt/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api-client';

/** POST /api/admin/outbox/{id}/retry: sends a waiting or dead message again now (409 once sent). */
function retryOutboxMessage(id: string): Promise<AdminOutboxMessage> {
  return call('retryOutboxMessage', { params: { id }, schema: adminOutboxMessage });
}

export function useRetryOutboxMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryOutboxMessage,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin', 'outbox'] }),
  });
}
