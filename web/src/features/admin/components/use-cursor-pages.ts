import { useCallback, useState } from 'react';

/**
 * Paging through answers that hand out a `next` cursor: the cursors of the pages seen so far are
 * kept, so Previous goes back without the server knowing page numbers.
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<(number | null)[]>([null]);
  return {
    cursor: cursors.at(-1) ?? null,
    page: cursors.length,
    hasPrevious: cursors.length > 1,
    next: useCallback((cursor: number) => setCursors((seen) => [...seen, cursor]), []),
    previous: useCallback(() => setCursors((seen) => (seen.length > 1 ? seen.slice(0, -1) : seen)), []),
    reset: useCallback(() => setCursors([null]), []),
  };
}

export type CursorPages = ReturnType<typeof useCursorPages>;
