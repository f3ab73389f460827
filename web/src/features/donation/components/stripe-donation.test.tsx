import { STRIPE_PUBLISHABLE_KEY_META } from '@qrshirt/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { TEST_PROOF_OF_WORK } from '@/testing/proof-of-work';
import { renderRoute } from '@/testing/render';
import { DonationCard } from './donation-card';

/**
 * Stripe.js as the page would have it once js.stripe.com's script ran (`window.Stripe`), which
 * `loadStripe` then uses rather than adding the script: it records what the card asked of it and
 * lets the test complete the payment as a donor would.
 */
const stripeJs = {
  keys: [] as string[],
  clientSecrets: [] as string[],
  mounted: [] as { clientSecret: string; element: HTMLElement }[],
  destroyed: [] as string[],
  complete: undefined as (() => void) | undefined,
};
function StandInStripe(publishableKey: string) {
  stripeJs.keys.push(publishableKey);
  return {
    async createEmbeddedCheckoutPage(options: { fetchClientSecret: () => Promise<string>; onComplete: () => void }) {
      const clientSecret = await options.fetchClientSecret();
      stripeJs.clientSecrets.push(clientSecret);
      stripeJs.complete = options.onComplete;
      return {
        mount(element: HTMLElement) {
          element.textContent = `Stripe Checkout ${clientSecret}`;
          stripeJs.mounted.push({ clientSecret, element });
        },
        unmount() {},
        destroy() {
          stripeJs.destroyed.push(clientSecret);
        },
      };
    },
  };
}
StandInStripe.version = 'endive';
Object.assign(window, { Stripe: StandInStripe });

function keyedPage() {
  const meta = document.createElement('meta');
  meta.name = STRIPE_PUBLISHABLE_KEY_META;
  meta.content = 'pk_test_card';
  document.head.append(meta);
  return () => meta.remove();
}

function checkoutApi(answer: { status?: number; json?: unknown } = { json: { clientSecret: 'cs_test_1_secret_x' } }) {
  return fakeApi({
    'POST /api/fundraisers/f-1/checkout': answer,
    'POST /api/fundraisers/f-1/donate': (request) => ({
      status: 201,
      json: {
        id: 'r-1',
        fundraiserId: 'f-1',
        amount: (request.body as { amount: number }).amount,
        currency: 'USD',
        awaitingConfirmation: true,
      },
    }),
  });
}

function renderCard() {
  const onRecorded = vi.fn();
  const view = renderRoute(<DonationCard fundraiserId="f-1" charityName="Ocean Friends" onRecorded={onRecorded} />);
  return { ...view, onRecorded };
}

describe("the donation card with Stripe's embedded Checkout", () => {
  let unkey: () => void;
  beforeEach(() => {
    unkey = keyedPage();
    Object.assign(stripeJs, { keys: [], clientSecrets: [], mounted: [], destroyed: [], complete: undefined });
  });
  afterEach(() => unkey());

  it('offers $5, $10, $25, $50 and another amount, and no demo widget', async () => {
    checkoutApi();
    renderCard();
    await screen.findByRole('button', { name: 'Continue to payment' });
    for (const label of ['$5', '$10', '$25', '$50', 'Other'])
      expect(screen.getByRole('radio', { name: label })).toBeTruthy();
    expect(screen.queryByTitle('Donation widget')).toBeNull();
  });

  it('creates the Checkout for the chosen amount under a key of its own, and mounts it in the card', async () => {
    const api = checkoutApi();
    const { user } = renderCard();
    await user.click(await screen.findByRole('radio', { name: '$50' }));
    await user.click(screen.getByRole('button', { name: 'Continue to payment' }));
    const checkout = await screen.findByText('Stripe Checkout cs_test_1_secret_x');
    expect(screen.getByTestId('stripe-checkout')).toBe(checkout);
    const [request] = api.to('POST', '/api/fundraisers/f-1/checkout');
    expect(request!.body).toEqual({ amount: 50 });
    expect(request!.headers['idempotency-key']).toMatch(/^[\w-]{16,}$/);
    // Solved in the card's widget, as the other anonymous forms' writes are.
    expect(request!.headers['x-altcha']).toBe(TEST_PROOF_OF_WORK);
    expect(stripeJs.keys).toEqual(['pk_test_card']);
    expect(screen.getByText('Your donation: $50.00')).toBeTruthy();
  });

  it('thanks the donor on completion and reports the donation with the key the Checkout used', async () => {
    const api = checkoutApi();
    const { user, onRecorded } = renderCard();
    await user.click(await screen.findByRole('radio', { name: '$25' }));
    await user.click(screen.getByRole('button', { name: 'Continue to payment' }));
    await screen.findByText('Stripe Checkout cs_test_1_secret_x');
    act(() => stripeJs.complete!());

    expect((await screen.findByTestId('donation-thanks')).textContent).toContain('Your $25.00 gift to Ocean Friends');
    await waitFor(() => expect(onRecorded).toHaveBeenCalled());
    const key = api.to('POST', '/api/fundraisers/f-1/checkout')[0]!.headers['idempotency-key'];
    const [report] = api.to('POST', '/api/fundraisers/f-1/donate');
    expect(report!.body).toEqual({ amount: 25 });
    expect(report!.headers['idempotency-key']).toBe(key);
    expect(onRecorded).toHaveBeenCalledWith(expect.objectContaining({ amount: 25 }), key);
    // The Checkout leaves the card; the next donation starts from the amounts again.
    expect(stripeJs.destroyed).toEqual(['cs_test_1_secret_x']);
    expect(screen.getByRole('button', { name: 'Continue to payment' })).toBeTruthy();
  });

  it('gives each payment its own key, and a changed amount its own Checkout', async () => {
    const api = checkoutApi();
    const { user } = renderCard();
    await user.click(await screen.findByRole('button', { name: 'Continue to payment' }));
    await screen.findByText('Stripe Checkout cs_test_1_secret_x');
    await user.click(screen.getByRole('button', { name: 'Change amount' }));
    expect(stripeJs.destroyed).toEqual(['cs_test_1_secret_x']);
    await user.click(screen.getByRole('radio', { name: '$5' }));
    await user.click(screen.getByRole('button', { name: 'Continue to payment' }));
    await waitFor(() => expect(stripeJs.mounted).toHaveLength(2));
    const requests = api.to('POST', '/api/fundraisers/f-1/checkout');
    expect(requests.map((request) => request.body)).toEqual([{ amount: 10 }, { amount: 5 }]);
    expect(requests[0]!.headers['idempotency-key']).not.toBe(requests[1]!.headers['idempotency-key']);
  });

  it('takes another amount in dollars and cents, within what Stripe and the API accept', async () => {
    const api = checkoutApi();
    const { user } = renderCard();
    await user.click(await screen.findByRole('radio', { name: 'Other' }));
    const input = screen.getByLabelText('Your amount (USD)');
    const submit = screen.getByRole('button', { name: 'Continue to payment' });

    await user.click(submit);
    expect(await screen.findByText('Enter an amount in dollars')).toBeTruthy();
    await user.type(input, '0.4');
    await user.click(submit);
    expect(await screen.findByText('The smallest donation is $0.50')).toBeTruthy();
    await user.clear(input);
    await user.type(input, '1000000');
    await user.click(submit);
    expect(await screen.findByText('The largest donation is $999,999.99')).toBeTruthy();
    expect(api.to('POST', '/api/fundraisers/f-1/checkout')).toEqual([]);

    await user.clear(input);
    await user.type(input, '12.345');
    await user.click(submit);
    await screen.findByText('Stripe Checkout cs_test_1_secret_x');
    // The field keeps cents: a third decimal is not typed in.
    expect(api.to('POST', '/api/fundraisers/f-1/checkout')[0]!.body).toEqual({ amount: 12.34 });
  });

  it("says why when the Checkout cannot start, in the API's words, and lets the donor try again", async () => {
    checkoutApi({ status: 502, json: { error: 'Stripe did not answer; nothing was charged' } });
    const { user } = renderCard();
    await user.click(await screen.findByRole('button', { name: 'Continue to payment' }));
    const failed = await screen.findByTestId('checkout-failed');
    expect(failed.textContent).toContain('Stripe did not answer; nothing was charged');
    expect(stripeJs.mounted).toEqual([]);
    expect(screen.getByRole('button', { name: 'Continue to payment' })).toBeTruthy();
    expect(screen.queryByTestId('donation-thanks')).toBeNull();
  });

  it("says in the API's one line, in place of the Checkout, that the charity takes no card donation yet", async () => {
    const api = checkoutApi({ status: 409, json: { error: 'Ocean Friends cannot take card donations here yet' } });
    const { user } = renderCard();
    await user.click(await screen.findByRole('radio', { name: '$25' }));
    await user.click(screen.getByRole('button', { name: 'Continue to payment' }));

    const closed = await screen.findByTestId('card-donations-closed');
    expect(closed.textContent).toBe('Ocean Friends cannot take card donations here yet');
    expect(stripeJs.mounted).toEqual([]);
    // Neither the failure's alert nor a way to try again: the next try would be refused alike.
    expect(screen.queryByTestId('checkout-failed')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('radio')).toBeNull();
    expect(document.querySelector('.mantine-Notification-root')).toBeNull();
    expect(api.to('POST', '/api/fundraisers/f-1/checkout')).toHaveLength(1);
  });
});

describe('the donation card without Stripe', () => {
  it("keeps the configured widget's frame", async () => {
    checkoutApi();
    renderCard();
    expect(await screen.findByTitle('Donation widget')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Continue to payment' })).toBeNull();
  });
});
