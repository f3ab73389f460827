import { Table, type TableProps, Text } from '@mantine/core';

export interface DataTableProps<Row> extends Omit<TableProps, 'children'> {
  /** Names the scrolling region. */
  label: string;
  minWidth: number;
  /** The header cells. */
  head: React.ReactNode;
  rows: Row[];
  /** Said instead of a table with no rows; without it, the empty table shows. */
  empty?: string;
  /** A row's `Table.Tr`, keyed. */
  children: (row: Row) => React.ReactNode;
}

/**
 * An admin list as a table that scrolls sideways on narrow screens. The scrolling region is
 * focusable and named, so it can be scrolled from the keyboard too (WCAG: scrollable regions must be
 * reachable).
 */
export function DataTable<Row>({ label, minWidth, head, rows, empty, children, ...table }: DataTableProps<Row>) {
  if (empty !== undefined && rows.length === 0) return <Text c="dimmed">{empty}</Text>;
  return (
    <Table.ScrollContainer type="native" minWidth={minWidth} tabIndex={0} role="region" aria-label={label}>
      <Table {...table}>
        <Table.Thead>
          <Table.Tr>{head}</Table.Tr>
        </Table.Thead>
        <Table.Tbody>{rows.map((row) => children(row))}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
