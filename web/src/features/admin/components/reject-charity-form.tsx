import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import type { AdminCharity, CharityWithStatus } from '@qrshirt/contracts';
import { useState } from 'react';
import { useRejectCharity } from '../api/reject-charity';
import { ownError, saveProblem } from './field-errors';

/** The reason is kept with the charity and shown to the member who submitted it. */
export function RejectCharityForm({
  charity,
  onRejected,
}: {
  charity: AdminCharity;
  onRejected: (rejected: CharityWithStatus) => void;
}) {
  const [reason, setReason] = useState('');
  const reject = useRejectCharity();
  const problem = saveProblem(reject.error);
  const fieldError = problem ? (ownError(problem.fields, 'reason') ?? problem.message) : undefined;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    reject.mutate({ charityId: charity.id, reason }, { onSuccess: onRejected });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={`Reject ${charity.name}`}>
      <Stack gap="sm">
        <Text size="sm">{charity.name} stays out of the shop. The member who submitted it sees your reason.</Text>
        <Textarea
          label="Reason"
          rows={3}
          value={reason}
          error={fieldError}
          onChange={(event) => setReason(event.currentTarget.value)}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button type="submit" color="red" loading={reject.isPending}>
            Reject charity
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
