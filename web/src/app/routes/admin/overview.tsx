import { SimpleGrid, Stack } from '@mantine/core';
import { useOverview } from '@/features/admin/api/get-overview';
import { DailyCharts } from '@/features/admin/components/daily-charts';
import { Loaded } from '@/features/admin/components/loaded';
import { OverviewTotals } from '@/features/admin/components/overview-totals';
import { PageHeader } from '@/features/admin/components/page-header';
import { TopCharities, TopFundraisers } from '@/features/admin/components/top-lists';

export function AdminOverviewRoute() {
  const overview = useOverview();
  return (
    <>
      <PageHeader title="Overview" note="Scans, donations and money raised across every fundraiser." />
      <Loaded query={overview} loading="Loading the overview..." what="the overview">
        {(data) => (
          <Stack gap="lg">
            <OverviewTotals totals={data.totals} />
            <DailyCharts daily={data.daily} />
            <SimpleGrid cols={{ base: 1, lg: 2 }}>
              <TopFundraisers fundraisers={data.topFundraisers} />
              <TopCharities charities={data.topCharities} />
            </SimpleGrid>
          </Stack>
        )}
      </Loaded>
    </>
  );
}
