import { Alert, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import type { Charity, CharityPayouts } from '@qrshirt/contracts';
import { useStartCharityPayouts } from '../api/start-charity-payouts';
import { SectionCard } from './section-card';

interface CharityPayoutsPanelProps {
  charity: Charity;
  payouts: CharityPayouts;
  /** Stripe sent the admin back here because the onboarding link was used or had expired. */
  expired: boolean;
}

type Stage = 'none' | 'onboarding' | 'connected';

const stageBadge: Record<Stage, { label: string; color: string }> = {
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
  const stage: Stage = payouts.accountId === null ? 'none' : payouts.chargesEnabled ? 'connected' : 'onboarding';
  const badge = stageBadge[stage];

  const goToStripe = () =>
    start.mutate(undefined, {
      onSuccess: (url) => window.location.assign(url),
    });

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
        {stage !== 'connected' && (
          <>
            {expired && (
              <Alert color="yellow" title="That Stripe link has expired">
                Stripe&apos;s onboarding links work once, for a few minutes. Ask for a new one to go on.
              </Alert>
            )}
            {start.isError && (
              <Alert color="red" title="Stripe's onboarding could not start">
                {start.error.message}
              </Alert>
            )}
            <Group>
              <Button onClick={goToStripe} loading={start.isPending || start.isSuccess}>
                {stage === 'none' ? 'Connect a Stripe account' : 'Continue Stripe onboarding'}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </SectionCard>
  );
}

function stageNote(stage: Stage, name: string): string {
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
