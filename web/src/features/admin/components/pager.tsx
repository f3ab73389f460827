import { Button, Group, Text } from '@mantine/core';
import type { CursorPages } from './use-cursor-pages';

interface PagerProps {
  pages: CursorPages;
  /** The cursor of the next page; null on the last one. */
  next: number | null;
  loading: boolean;
}

export function Pager({ pages, next, loading }: PagerProps) {
  return (
    <Group justify="space-between" mt="md">
      <Button variant="default" size="xs" disabled={!pages.hasPrevious || loading} onClick={pages.previous}>
        Previous
      </Button>
      <Text size="sm" c="dimmed">
        Page {pages.page}
      </Text>
      <Button
        variant="default"
        size="xs"
        disabled={next === null || loading}
        onClick={() => next !== null && pages.next(next)}
      >
        Next
      </Button>
    </Group>
  );
}
