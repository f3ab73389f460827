import '@mantine/charts/styles.css';
import { AreaChart } from '@mantine/charts';
import { SimpleGrid, Text } from '@mantine/core';
import type { DailyStats } from '@qrshirt/contracts';
import { ScansAndDonationsChart } from '@/components/scans-and-donations-chart';
import { formatUsd } from '@/lib/format';
import { SectionCard } from './section-card';

/** Scans, donations and amount raised per UTC day, across all fundraisers. */
export function DailyCharts({ daily }: { daily: DailyStats[] }) {
  if (daily.length === 0) {
    return <Text c="dimmed">No scans or donations yet: the charts fill in with the first one.</Text>;
  }
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }}>
      <SectionCard title="Scans and donations per day">
        <ScansAndDonationsChart days={daily} />
      </SectionCard>
      <SectionCard title="Amount raised per day">
        <AreaChart
          h={260}
          data={daily}
          dataKey="date"
          valueFormatter={formatUsd}
          series={[{ name: 'amountRaised', label: 'Amount raised', color: 'grape.8' }]}
        />
      </SectionCard>
    </SimpleGrid>
  );
}
