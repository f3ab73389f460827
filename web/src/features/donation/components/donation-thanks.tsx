import { Alert } from '@mantine/core';
import { THANKS_AMOUNT_ATTRIBUTE, THANKS_TEMPLATE_ID } from './thanks-template';

/** Spec section 5: the thank-you the card shows for 5 seconds after each donation. */
export function DonationThanks({ amount, charityName }: { amount: string; charityName: string }) {
  return (
    <Alert color="green" role="status" title="Thank you for your donation! 💚" data-testid="donation-thanks">
      Your <span {...{ [THANKS_AMOUNT_ATTRIBUTE]: '' }}>{amount}</span> gift to {charityName} makes a real difference.
    </Alert>
  );
}

/**
 * The thank-you as the server writes it into the landing, for its script to show without React: a
 * template, which the browser parses and never shows.
 */
export function DonationThanksTemplate({ charityName }: { charityName: string }) {
  return (
    <template id={THANKS_TEMPLATE_ID}>
      <DonationThanks amount="" charityName={charityName} />
    </template>
  );
}
