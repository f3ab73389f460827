import type { Charity, CharityPayouts } from '@qrshirt/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, type FakeAnswer } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { signInAs } from '@/testing/session';
import { AdminCharityPayoutsRoute } from './charity-payouts';

const water: Charity = {
  id: 'water',
  name: 'Clean Water Now',
  mission: 'Water for all.',
  website_url: 'https://water.example',
};

const notOpened: CharityPayouts = {
  accountId: null,
  chargesEnabled: false,
  payoutsEnabled: false,
  detailsSubmitted: false,
};
const onboarding: CharityPayouts = { ...notOpened, accountId: 'acct_water', detailsSubmitted: true };
const connected: CharityPayouts = {
  accountId: 'acct_water',
  chargesEnabled: true,
  payoutsEnabled: true,
  detailsSubmitted: true,
};

const ONBOARDING_URL = 'https://connect.stripe.com/setup/e/acct_water/abc123';

function payoutsServer(payouts: CharityPayouts, started: FakeAnswer = { json: { url: ONBOARDING_URL } }) {
  return fakeApi({
    'GET /api/charity/water': { json: water },
    'GET /api/admin/charities/water/payouts': { json: payouts },
    'POST /api/admin/charities/water/payouts': started,
  });
}

/** Where the page sends the browser: jsdom cannot leave for another site, so the test records it. */
let assign: ReturnType<typeof vi.fn>;
beforeEach(() => {
  assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  signInAs({ uid: 'boss' });
});

function renderPayouts(at = '/admin/charities/water/payouts') {
  return renderRoute(<AdminCharityPayoutsRoute />, { at, path: '/admin/charities/:id/payouts' });
}

const what = (label: string) =>
  within(screen.getByRole('table', { name: 'What Stripe says' })).getByRole('row', { name: new RegExp(`^${label}`) });

describe("a charity's Payouts page", () => {
  it('says a charity without an account is not connected, and sends the admin to Stripe on a click', async () => {
    const api = payoutsServer(notOpened);
    const { user } = renderPayouts();

    const section = await screen.findByRole('region', { name: 'Clean Water Now' });
    expect(within(section).getByTestId('payouts-stage').textContent).toBe('Not connected');
    expect(section.textContent).toContain('Clean Water Now has no Stripe account here yet.');
    expect(api.to('POST', '/api/admin/charities/water/payouts')).toEqual([]);

    await user.click(within(section).getByRole('button', { name: 'Connect a Stripe account' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(ONBOARDING_URL));
    expect(assign).toHaveBeenCalledTimes(1);
    expect(api.to('POST', '/api/admin/charities/water/payouts')).toHaveLength(1);
  });

  it('shows what Stripe says of an account still in onboarding, and offers to continue it', async () => {
    payoutsServer(onboarding);
    const { user } = renderPayouts();

    expect((await screen.findByTestId('payouts-stage')).textContent).toBe('Onboarding not finished');
    expect(what('Takes card donations').textContent).toContain('Not yet');
    expect(what('Stripe pays it out to its bank').textContent).toContain('Not yet');
    expect(what('Onboarding details submitted').textContent).toContain('Yes');
    expect(screen.queryByRole('button', { name: 'Connect a Stripe account' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Continue Stripe onboarding' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(ONBOARDING_URL));
  });

  it('says a charity whose account takes charges is connected, with nothing left to start', async () => {
    payoutsServer(connected);
    renderPayouts();

    expect((await screen.findByTestId('payouts-stage')).textContent).toBe('Connected');
    expect(screen.getByText('Card donations to Clean Water Now are paid by Stripe to its own account.')).toBeTruthy();
    for (const label of ['Takes card donations', 'Stripe pays it out to its bank', 'Onboarding details submitted'])
      expect(what(label).textContent).toContain('Yes');
    expect(screen.queryByRole('button', { name: /Stripe/ })).toBeNull();
  });

  it('says an expired link expired and waits for a click before asking for a new one', async () => {
    const api = payoutsServer(onboarding);
    const { user } = renderPayouts('/admin/charities/water/payouts?expired=1');

    expect(await screen.findByText('That Stripe link has expired')).toBeTruthy();
    const again = screen.getByRole('button', { name: 'Continue Stripe onboarding' });
    expect(api.to('POST', '/api/admin/charities/water/payouts')).toEqual([]);
    expect(assign).not.toHaveBeenCalled();

    await user.click(again);
    await waitFor(() => expect(assign).toHaveBeenCalledWith(ONBOARDING_URL));
  });

  it("shows the server's message when Stripe is not configured, and stays", async () => {
    const refusal = 'Charities cannot be connected here: Stripe is not configured (STRIPE_SECRET_KEY)';
    payoutsServer(notOpened, { status: 503, json: { error: refusal } });
    const { user } = renderPayouts();

    await user.click(await screen.findByRole('button', { name: 'Connect a Stripe account' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(refusal);
    expect(assign).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Connect a Stripe account' })).toBeTruthy();
  });

  it('says why when the charity is unknown or not approved', async () => {
    fakeApi({
      'GET /api/charity/water': { status: 404, json: { error: 'Charity not found' } },
      'GET /api/admin/charities/water/payouts': {
        status: 404,
        json: { error: 'Charity not found (or not approved yet)' },
      },
    });
    renderPayouts();

    expect(await screen.findByText('Could not load the charity')).toBeTruthy();
    expect(screen.getByText('Charity not found')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Stripe/ })).toBeNull();
  });
});
