import '@mantine/charts/styles.css';
import { BarChart, LineChart } from '@mantine/charts';
import { SimpleGrid, Table, Text } from '@mantine/core';
import type { AdminFunnel, FunnelSteps } from '@qrshirt/contracts';
import { formatCount, formatUsd } from '@/lib/format';
import { SectionCard } from './section-card';

/** The shop's steps, from a look to a shirt someone wears. */
const shopSteps = [
  { name: 'pageViews', label: 'Page views', color: 'blue.6' },
  { name: 'shirtClicks', label: 'Shirt clicks', color: 'cyan.6' },
  { name: 'waitlistJoins', label: 'Waitlist joins', color: 'teal.6' },
  { name: 'fulfilled', label: 'Fulfilled', color: 'green.6' },
  { name: 'claimed', label: 'Claimed', color: 'lime.7' },
] as const satisfies readonly { name: keyof FunnelSteps; label: string; color: string }[];

/** A worn shirt's steps, from a scan to money. */
const shirtSteps = [
  { name: 'scans', label: 'Scans', color: 'grape.6' },
  { name: 'donations', label: 'Donations', color: 'pink.6' },
] as const satisfies readonly { name: keyof FunnelSteps; label: string; color: string }[];

/** Each step as a share of the one before it: how many of those who got this far went on. */
function conversion(value: number, previous: number | undefined): string {
  if (previous === undefined) return '';
  if (previous === 0) return '–';
  return `${Math.round((value / previous) * 100)}%`;
}

function StepTable({
  totals,
  steps,
}: {
  totals: FunnelSteps;
  steps: readonly { name: keyof FunnelSteps; label: string }[];
}) {
  return (
    <Table>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Step</Table.Th>
          <Table.Th ta="right">Count</Table.Th>
          <Table.Th ta="right">Of the step before</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {steps.map((step, index) => {
          const before = steps[index - 1];
          return (
            <Table.Tr key={step.name}>
              <Table.Td>{step.label}</Table.Td>
              <Table.Td ta="right" data-testid={`funnel-${step.name}`}>
                {formatCount(totals[step.name])}
              </Table.Td>
              <Table.Td ta="right">{conversion(totals[step.name], before && totals[before.name])}</Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

/** The funnel of the range: the steps' totals, each day's, and each shirt's. */
export function FunnelCharts({ funnel, shirtNames }: { funnel: AdminFunnel; shirtNames: ReadonlyMap<string, string> }) {
  const totals = [...shopSteps, ...shirtSteps].map((step) => ({ step: step.label, count: funnel.totals[step.name] }));
  return (
    <>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <SectionCard title="From a look to a worn shirt">
          <StepTable totals={funnel.totals} steps={shopSteps} />
        </SectionCard>
        <SectionCard title="From a scan to a donation">
          <StepTable totals={funnel.totals} steps={shirtSteps} />
          <Text size="sm" c="dimmed" mt="sm">
            Amount raised: <span data-testid="funnel-amount-raised">{formatUsd(funnel.totals.amountRaised)}</span>
          </Text>
        </SectionCard>
      </SimpleGrid>
      <SectionCard title="Every step in the range">
        <BarChart
          h={260}
          data={totals}
          dataKey="step"
          orientation="vertical"
          yAxisProps={{ width: 110 }}
          series={[{ name: 'count', label: 'Count', color: 'blue.6' }]}
        />
      </SectionCard>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <SectionCard title="Shop steps per day">
          <LineChart h={260} data={funnel.daily} dataKey="date" withLegend series={[...shopSteps]} />
        </SectionCard>
        <SectionCard title="Scans and donations per day">
          <LineChart h={260} data={funnel.daily} dataKey="date" withLegend series={[...shirtSteps]} />
        </SectionCard>
      </SimpleGrid>
      <SectionCard title="Per shirt">
        {funnel.shirts.length === 0 ? (
          <Text c="dimmed">Nothing happened in this range yet.</Text>
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Shirt</Table.Th>
                  {[...shopSteps, ...shirtSteps].map((step) => (
                    <Table.Th key={step.name} ta="right">
                      {step.label}
                    </Table.Th>
                  ))}
                  <Table.Th ta="right">Raised</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {funnel.shirts.map((shirt) => (
                  <Table.Tr key={shirt.shirtId}>
                    <Table.Td>{shirtNames.get(shirt.shirtId) ?? shirt.shirtId}</Table.Td>
                    {[...shopSteps, ...shirtSteps].map((step) => (
                      <Table.Td key={step.name} ta="right">
                        {formatCount(shirt[step.name])}
                      </Table.Td>
                    ))}
                    <Table.Td ta="right">{formatUsd(shirt.amountRaised)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </SectionCard>
    </>
  );
}
