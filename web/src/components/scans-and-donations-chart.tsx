import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';

/** Scans and donations per day as bars, drawn alike for an owner's shirts and for the admins' overview. */
export function ScansAndDonationsChart({ days }: { days: { date: string; scans: number; donations: number }[] }) {
  return (
    <BarChart
      h={260}
      data={days}
      dataKey="date"
      withLegend
      series={[
        { name: 'scans', label: 'Scans', color: 'blue.8' },
        { name: 'donations', label: 'Donations', color: 'teal.8' },
      ]}
    />
  );
}
