import { Alert, Button, Group } from '@mantine/core';
import type { CharityPayouts } from '@qrshirt/contracts';
import type { UseMutationResult } from '@tanstack/react-query';

/** No Stripe account, one Stripe does not let take card donations yet, or one it does. */
export type PayoutsStage = 'none' | 'onboarding' | 'connected';

export function payoutsStage(payouts: CharityPayouts): PayoutsStage {
  if (payouts.accountId === null) return 'none';
  return payouts.chargesEnabled ? 'connected' : 'onboarding';
}

interface StripeOnboardingActionsProps {
  stage: PayoutsStage;
  /** Stripe sent the browser back because the onboarding link was used or had expired. */
  expired: boolean;
  /** Answers the single-use link to Stripe's onboarding. */
  start: UseMutationResult<string, Error, void>;
  connectLabel: string;
}

/**
 * The way into Stripe's onboarding until the charity is connected: Stripe hosts the form, so the
 * browser leaves for the link the API answers, and Stripe sends it back to the page it came from.
 */
export function StripeOnboardingActions({ stage, expired, start, connectLabel }: StripeOnboardingActionsProps) {
  if (stage === 'connected') return null;
  const goToStripe = () => start.mutate(undefined, { onSuccess: (url) => window.location.assign(url) });
  return (
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
          {stage === 'none' ? connectLabel : 'Continue Stripe onboarding'}
        </Button>
      </Group>
    </>
  );
}
