import { Button, Stack, Text } from '@mantine/core';
import { useProofOfWork } from '@/lib/proof-of-work/use-proof-of-work';
import { showSuccessToast } from '@/lib/toast';
import { useResendVerification } from '../api/resend-verification';

/** Mails the signed-in account a fresh verification link; the server's refusal is shown under it. */
export function ResendVerificationButton({ label = 'Send a new link' }: { label?: string }) {
  const proofOfWork = useProofOfWork();
  const resend = useResendVerification(proofOfWork.solve);
  return (
    <Stack gap={4} align="flex-start">
      <Button
        variant="default"
        loading={resend.isPending}
        onClick={() =>
          resend.mutate(undefined, { onSuccess: () => showSuccessToast('Link sent', 'A new link is on its way') })
        }
      >
        {label}
      </Button>
      {proofOfWork.widget}
      {resend.isError && (
        <Text c="red.8" size="sm" role="alert">
          {resend.error.message}
        </Text>
      )}
    </Stack>
  );
}
