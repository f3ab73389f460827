import { Badge, Card, Group, Stack, Text } from '@mantine/core';
import type { CharityPayouts } from '@qrshirt/contracts';
import { type PayoutsStage, payoutsStage, StripeOnboardingActions } from '@/components/stripe-onboarding';
import { useStartMyCharityPayouts } from '../api/start-charity-payouts';

interface CharityPayoutsCardProps {
  charityId: string;
  charityName: string;
  payouts: CharityPayouts;
  /** Stripe sent the member back here because the onboarding link was used or had expired. */
  expired: boolean;
}

const stageBadge: Record<PayoutsStage, { label: string; color: string }> = {
  none: { label: 'Not connected', color: 'gray' },
  onboarding: { label: 'Onboarding not finished', color: 'yellow' },
  connected: { label: 'Takes card donations', color: 'green' },
};

/**
 * Where a charity's submitter stands with Stripe, in plain words, and the way into Stripe's
 * onboarding: Stripe hosts the form, so the browser leaves for the link the API answers, and
 * Stripe sends it back to this page.
 */
export function CharityPayoutsCard({ charityId, charityName, payouts, expired }: CharityPayoutsCardProps) {
  const start = useStartMyCharityPayouts(charityId);
  const stage = payoutsStage(payouts);
  const badge = stageBadge[stage];

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={`${charityName} on Stripe`}>
      <Stack gap="md">
        <Group gap="sm">
          <Badge color={badge.color} variant="light" c="dark.8" size="lg" data-testid="payouts-stage">
            {badge.label}
          </Badge>
        </Group>
        <Text data-testid="payouts-note">{stageNote(stage, charityName, payouts)}</Text>
        <StripeOnboardingActions stage={stage} expired={expired} start={start} connectLabel="Connect to Stripe" />
      </Stack>
    </Card>
  );
}

function stageNote(stage: PayoutsStage, name: string, payouts: CharityPayouts): string {
  switch (stage) {
    case 'none':
      return `${name} is not connected to Stripe yet. Once it is, Stripe pays each card donation to its fundraisers into the charity's own account. Stripe asks for the charity's details and bank account on its own site.`;
    case 'onboarding':
      return payouts.detailsSubmitted
        ? `You sent Stripe ${name}'s details, and Stripe is checking them: this page says so once Stripe lets ${name} take card donations. If Stripe asks for more, continue the onboarding.`
        : `${name} has a Stripe account, but its onboarding is not finished: continue where you left off.`;
    case 'connected':
      return payouts.payoutsEnabled
        ? `${name} takes card donations: Stripe pays each one into its own account and out to its bank.`
        : `${name} takes card donations: Stripe pays each one into its own account, and will pay out to its bank once it has checked the bank account.`;
  }
}
