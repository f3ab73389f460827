import { SimpleGrid, Stack } from '@mantine/core';
import { PageLoader } from '@/components/page-loader';
import { useOverview } from '@/features/admin/api/get-overview';
import { DailyCharts } from '@/features/admin/components/daily-charts';
import { LoadFailed } from '@/features/admin/components/load-failed';
import { OverviewTotals } from '@/features/admin/components/overview-totals';
import { PageHeader } from '@/features/admin/components/page-header';
import { TopCharities, TopFundraisers } from '@/features/admin/components/top-lists';

export function AdminOverviewRoute() {
  const overview = useOverview();
  return (
    <>
      <PageHeader title="Overview" note="Scans, donations and money raised across every fundraiser." />
      {overview.isPending ? (
        <PageLoader label="Loading the overview..." />
      ) : overview.isError ? (
        <LoadFailed what="the overview" error={overview.error} onRetry={() => void overview.refetch()} />
      ) : (
        <Stack gap="lg">
          <OverviewTotals totals={overview.data.totals} />
          <DailyCharts daily={overview.data.daily} />
          <SimpleGrid cols={{ base: 1, lg: 2 }}>
            <TopFundraisers fundraisers={overview.data.topFundraisers} />
            <TopCharities charities={overview.data.topCharities} />
          </SimpleGrid>
        </Stack>
      )}
    </>
  );
}
