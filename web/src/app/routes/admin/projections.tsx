import { Text } from '@mantine/core';
import { PageLoader } from '@/components/page-loader';
import { useProjections } from '@/features/admin/api/get-projections';
import { LoadFailed } from '@/features/admin/components/load-failed';
import { PageHeader } from '@/features/admin/components/page-header';
import { ProjectionsTable } from '@/features/admin/components/projections-table';
import { formatCount } from '@/lib/format';

export function AdminProjectionsRoute() {
  const projections = useProjections();
  return (
    <>
      <PageHeader title="Projections" note="The read models the shop answers from, as they follow the event log." />
      {projections.isPending ? (
        <PageLoader label="Loading projections..." />
      ) : projections.isError ? (
        <LoadFailed what="the projections" error={projections.error} onRetry={() => void projections.refetch()} />
      ) : (
        <>
          <Text mb="sm" c="dimmed">
            The event log holds {formatCount(projections.data.headPosition)} events.
          </Text>
          <ProjectionsTable projections={projections.data.projections} />
        </>
      )}
    </>
  );
}
