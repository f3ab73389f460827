import { Badge, Table, Text } from '@mantine/core';
import type { AdminProjection, ProjectionState } from '@qrshirt/contracts';
import { formatCount } from '@/lib/format';
import { DataTable } from './data-table';
import { RebuildControl } from './rebuild-control';

const stateColors: Record<ProjectionState, string> = {
  running: 'teal',
  'catching-up': 'yellow',
  rebuilding: 'blue',
  failed: 'red',
};

/** Each projector: how far it has read the log, how far behind it is, and a rebuild button. */
export function ProjectionsTable({ projections }: { projections: AdminProjection[] }) {
  return (
    <DataTable
      label="Projections"
      minWidth={820}
      striped
      verticalSpacing="sm"
      rows={projections}
      head={
        <>
          <Table.Th>Projection</Table.Th>
          <Table.Th>State</Table.Th>
          <Table.Th ta="right">Checkpoint</Table.Th>
          <Table.Th ta="right">Lag (events)</Table.Th>
          <Table.Th ta="right">Lag (seconds)</Table.Th>
          <Table.Th ta="right">Version</Table.Th>
          <Table.Th>Rebuild</Table.Th>
        </>
      }
    >
      {(projection) => (
        <Table.Tr key={projection.name} data-testid={`projection-${projection.name}`}>
          <Table.Td fw={600}>{projection.name}</Table.Td>
          <Table.Td>
            {/* Dark text: the light badge colours alone are too pale to read (WCAG AA). */}
            <Badge color={stateColors[projection.state]} variant="light" c="dark.8">
              {projection.state}
            </Badge>
            {projection.lastError && (
              <Text size="xs" c="red">
                {projection.lastError}
              </Text>
            )}
          </Table.Td>
          <Table.Td ta="right">
            {projection.checkpoint === null ? 'none yet' : formatCount(projection.checkpoint)}
          </Table.Td>
          <Table.Td ta="right">
            {projection.lagEvents === null ? 'not counted' : formatCount(projection.lagEvents)}
          </Table.Td>
          <Table.Td ta="right">{projection.lagSeconds.toFixed(1)}</Table.Td>
          <Table.Td ta="right">{projection.activeVersion}</Table.Td>
          <Table.Td>
            <RebuildControl projection={projection} />
          </Table.Td>
        </Table.Tr>
      )}
    </DataTable>
  );
}
