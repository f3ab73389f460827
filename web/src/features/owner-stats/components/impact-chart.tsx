import { Card, Text, Title } from '@mantine/core';
import { ScansAndDonationsChart } from '@/components/scans-and-donations-chart';
import type { DailyPoint } from './combine-daily';

/** Scans and donations per day across all of the owner's shirts. */
export function ImpactChart({ days }: { days: DailyPoint[] }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="impact-chart-title">
      <Title order={2} size="h3" id="impact-chart-title" mb="md">
        Scans and donations per day
      </Title>
      {days.length === 0 ? (
        <Text c="dimmed">No scans or donations yet: the chart fills in once someone scans one of your shirts.</Text>
      ) : (
        <ScansAndDonationsChart days={days} />
      )}
    </Card>
  );
}
