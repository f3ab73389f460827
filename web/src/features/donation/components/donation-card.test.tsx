import { STRIPE_PLATFORM_FEE_META, STRIPE_PUBLISHABLE_KEY_META } from '@qrshirt/contracts';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoute } from '@/testing/render';
import { DonationCard } from './donation-card';

/** The meta tags a gateway with these settings puts in its pages. */
function pageOf(settings: Record<string, string>) {
  const tags = Object.entries(settings).map(([name, content]) => {
    const meta = document.createElement('meta');
    Object.assign(meta, { name, content });
    document.head.append(meta);
    return meta;
  });
  return () => tags.forEach((tag) => tag.remove());
}

const shareSaid = async () => {
  renderRoute(<DonationCard fundraiserId="f-1" charityName="Ocean Friends" onRecorded={vi.fn()} />);
  return (await screen.findByTestId('donation-share')).textContent;
};

describe('what the donation card says reaches the charity', () => {
  let unset = () => {};
  afterEach(() => unset());

  it('every dollar, with Stripe taking donations and the platform keeping no share', async () => {
    unset = pageOf({ [STRIPE_PUBLISHABLE_KEY_META]: 'pk_test_card', [STRIPE_PLATFORM_FEE_META]: '0' });
    expect(await shareSaid()).toBe('Every dollar goes to Ocean Friends. Pick an amount below.');
  });

  it("the charity's share, when the platform keeps one, and who pays Stripe's fee", async () => {
    unset = pageOf({ [STRIPE_PUBLISHABLE_KEY_META]: 'pk_test_card', [STRIPE_PLATFORM_FEE_META]: '2.5' });
    expect(await shareSaid()).toBe(
      "97.5% of every dollar goes to Ocean Friends; this site keeps 2.5% and pays Stripe's processing fee out of it. " +
        'Pick an amount below.',
    );
  });

  it("that another processor's widget takes its own fee", async () => {
    expect(await shareSaid()).toBe(
      'Your donation goes to Ocean Friends through the processor below, less any processing fee it charges. ' +
        'Pick an amount below.',
    );
  });
});
