import { Text } from '@mantine/core';
import { useProjections } from '@/features/admin/api/get-projections';
import { Loaded } from '@/features/admin/components/loaded';
import { PageHeader } from '@/features/admin/components/page-header';
import { ProjectionsTable } from '@/features/admin/components/projections-table';
import { formatCount } from '@/lib/format';

export function AdminProjectionsRoute() {
  const projections = useProjections();
  return (
    <>
      <PageHeader title="Projections" note="The read models the shop answers from, as they follow the event log." />
      <Loaded query={projections} loading="Loading projections..." what="the projections">
        {(data) => (
          <>
            <Text mb="sm" c="dimmed">
              {data.positionUnit === 'events'
                ? `The event log holds ${formatCount(data.headPosition)} events.`
                : `The event log ends at byte ${formatCount(data.headPosition)}. EventStoreDB numbers its log in bytes, so it cannot count the events a projection is behind: lag shows in seconds only.`}
            </Text>
            <ProjectionsTable projections={data.projections} />
          </>
        )}
      </Loaded>
    </>
  );
}
