import { Table } from '@mantine/core';

/**
 * A table that scrolls sideways on narrow screens. The scrolling region is focusable and named, so
 * it can be scrolled from the keyboard too (WCAG: scrollable regions must be reachable).
 */
export function ScrollingTable({
  label,
  minWidth,
  children,
}: {
  label: string;
  minWidth: number;
  children: React.ReactNode;
}) {
  return (
    <Table.ScrollContainer type="native" minWidth={minWidth} tabIndex={0} role="region" aria-label={label}>
      {children}
    </Table.ScrollContainer>
  );
}
