import { Button, Group, Text } from '@mantine/core';

interface PagerProps {
  page: number;
  hasPrevious: boolean;
  /** The cursor of the next page; null on the last one. */
  next: number | null;
  loading: boolean;
  onPrevious: () => void;
  onNext: (cursor: number) => void;
}

export function Pager({ page, hasPrevious, next, loading, onPrevious, onNext }: PagerProps) {
  return (
    <Group justify="space-between" mt="md">
      <Button variant="default" size="xs" disabled={!hasPrevious || loading} onClick={onPrevious}>
        Previous
      </Button>
      <Text size="sm" c="dimmed">
        Page {page}
      </Text>
      <Button
        variant="default"
        size="xs"
        disabled={next === null || loading}
        onClick={() => next !== null && onNext(next)}
      >
        Next
      </Button>
    </Group>
  );
}
