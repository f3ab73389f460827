import { Text } from '@mantine/core';
import { formatUsd } from '@/lib/format';

/**
 * Money a page reported that the donation processor has not confirmed yet: beside a confirmed
 * figure, smaller, and only when there is some. It never counts in the figure it sits beside.
 */
export function AwaitingConfirmation({ amount }: { amount: number }) {
  if (!(amount > 0)) return null;
  return (
    <Text span size="sm" c="dimmed" data-testid="awaiting-confirmation">
      + {formatUsd(amount)} awaiting confirmation
    </Text>
  );
}
