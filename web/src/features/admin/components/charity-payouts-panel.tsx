import { Badge, Group, Stack, Table, Text } from '@mantine/core';
import type { Charity, CharityPayouts } from '@qrshirt/contracts';
import { type PayoutsStage, payoutsStage, StripeOnboardingActions } from '@/components/stripe-onboarding';
import { useStartCharityPayouts } from '../api/start-charity-payouts';
import { SectionCard } from './section-card';

interface CharityPayoutsPanelProps {
  charity: Charity;
  payouts: CharityPayouts;
  /** Stripe sent the admin back here because the onboarding link was used or had expired. */
  expired: boolean;
}

const stageBadge: Record<PayoutsStage, { label: string; color: string }> = {
  none: { label: 'Not connected', color: 'gray' },
  onboarding: { label: 'Onboarding not finished', color: 'yellow' },
  connected: { label: 'Connected', color: 'green' },
};

/**
 * A charity's Stripe account as Stripe last described it, and the way into Stripe's onboarding
 * for it: Stripe hosts the form, so the browser leaves for the link the API answers.
 */
export function CharityPayoutsPanel({ charity, payouts, expired }: CharityPayoutsPanelProps) {
  const start = useStartCharityPayouts(charity.id);
  const stage = payoutsStage(payouts);
  const badge = stageBadge[stage];

  return (
    <SectionCard title={charity.name}>
      <Stack gap="md">
        <Group gap="sm">
          <Badge color={badge.color} variant="light" size="lg" data-testid="payouts-stage">
            {badge.label}
          </Badge>
        </Group>
        <Text>{stageNote(stage, charity.name)}</Text>
        {stage !== 'none' && (
          <Table variant="vertical" withTableBorder layout="fixed" maw={480} aria-label="What Stripe says">
            <Table.Tbody>
              <Fact label="Takes card donations" yes={payouts.chargesEnabled} />
              <Fact label="Stripe pays it out to its bank" yes={payouts.payoutsEnabled} />
              <Fact label="Onboarding details submitted" yes={payouts.detailsSubmitted} />
            </Table.Tbody>
          </Table>
        )}
        <StripeOnboardingActions
          stage={stage}
          expired={expired}
          start={start}
          connectLabel="Connect a Stripe account"
        />
      </Stack>
    </SectionCard>
  );
}

function stageNote(stage: PayoutsStage, name: string): string {
  switch (stage) {
    case 'none':
      return `${name} has no Stripe account here yet. With live keys, its fundraisers take no card donation until it has one that Stripe lets take them.`;
    case 'onboarding':
      return `${name} has a Stripe account, but Stripe does not let it take card donations yet: its people finish Stripe's onboarding form, then Stripe checks what they sent.`;
    case 'connected':
      return `Card donations to ${name} are paid by Stripe to its own account.`;
  }
}

function Fact({ label, yes }: { label: string; yes: boolean }) {
  return (
    <Table.Tr>
      <Table.Th w={260}>{label}</Table.Th>
      <Table.Td>{yes ? 'Yes' : 'Not yet'}</Table.Td>
    </Table.Tr>
  );
}
