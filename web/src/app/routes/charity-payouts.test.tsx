import type { CharityPayouts, CharityWithStatus } from '@qrshirt/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, type FakeAnswer } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { signInAs } from '@/testing/session';
import { CharityPayoutsRoute } from './charity-payouts';

const bees: CharityWithStatus = {
  id: 'bees',
  name: 'Bees Please',
  mission: 'Keeps bees.',
  website_url: 'https://bees.example',
  status: 'approved',
};

const notOpened: CharityPayouts = {
  accountId: null,
  chargesEnabled: false,
  payoutsEnabled: false,
  detailsSubmitted: false,
};
const started: CharityPayouts = { ...notOpened, accountId: 'acct_bees' };
const submitted: CharityPayouts = { ...started, detailsSubmitted: true };
const connected: CharityPayouts = { ...submitted, chargesEnabled: true, payoutsEnabled: true };

const ONBOARDING_URL = 'https://connect.stripe.com/setup/e/acct_bees/xyz789';
const OWN = '/api/charity/bees/payouts';

function ownServer(payouts: FakeAnswer, start: FakeAnswer = { json: { url: ONBOARDING_URL } }) {
  return fakeApi({ 'GET /api/charity/bees': { json: bees }, [`GET ${OWN}`]: payouts, [`POST ${OWN}`]: start });
}

/** Where the page sends the browser: jsdom cannot leave for another site, so the test records it. */
let assign: ReturnType<typeof vi.fn>;
beforeEach(() => {
  assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  signInAs({ uid: 'creator' });
});

function renderPage(at = '/charity/bees/payouts') {
  return renderRoute(<CharityPayoutsRoute />, { at, path: '/charity/:charityId/payouts' });
}

const stage = async () => (await screen.findByTestId('payouts-stage')).textContent;
const note = () => screen.getByTestId('payouts-note').textContent;

describe("the Stripe payouts page of a member's charity", () => {
  it('says a charity without an account is not connected, and leaves for Stripe on a click', async () => {
    const api = ownServer({ json: notOpened });
    const { user } = renderPage();

    expect(await screen.findByRole('heading', { level: 1, name: 'Stripe payouts of Bees Please' })).toBeTruthy();
    expect(await stage()).toBe('Not connected');
    expect(note()).toContain('Bees Please is not connected to Stripe yet.');
    expect(api.to('POST', OWN)).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Connect to Stripe' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(ONBOARDING_URL));
    expect(assign).toHaveBeenCalledTimes(1);
    expect(api.to('POST', OWN)).toHaveLength(1);
  });

  it('offers to continue an onboarding left unfinished', async () => {
    ownServer({ json: started });
    const { user } = renderPage();

    expect(await stage()).toBe('Onboarding not finished');
    expect(note()).toBe(
      'Bees Please has a Stripe account, but its onboarding is not finished: continue where you left off.',
    );
    expect(screen.queryByRole('button', { name: 'Connect to Stripe' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Continue Stripe onboarding' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(ONBOARDING_URL));
  });

  it('says, back from Stripe with the details sent, that Stripe is checking them', async () => {
    const api = ownServer({ json: submitted });
    renderPage();

    expect(await stage()).toBe('Onboarding not finished');
    expect(note()).toContain("You sent Stripe Bees Please's details, and Stripe is checking them");
    expect(screen.queryByText('That Stripe link has expired')).toBeNull();
    expect(api.to('POST', OWN)).toEqual([]);
  });

  it('says a charity whose account takes charges takes card donations, with nothing left to start', async () => {
    ownServer({ json: connected });
    renderPage();

    expect(await stage()).toBe('Takes card donations');
    expect(note()).toBe(
      'Bees Please takes card donations: Stripe pays each one into its own account and out to its bank.',
    );
    expect(screen.queryByRole('button', { name: /Stripe/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe('/dashboard');
  });

  it('says an expired link expired and asks for a new one only on a click', async () => {
    const api = ownServer({ json: started });
    const { user } = renderPage('/charity/bees/payouts?expired=1');

    const expired = await screen.findByText('That Stripe link has expired');
    expect(expired.closest('[role="alert"]')?.textContent).toContain('Ask for a new one to go on.');
    expect(api.to('POST', OWN)).toEqual([]);
    expect(assign).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Continue Stripe onboarding' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(ONBOARDING_URL));
    expect(api.to('POST', OWN)).toHaveLength(1);
  });

  it("shows the server's refusal when Stripe is not configured, and stays", async () => {
    const refusal = 'Charities cannot be connected here: Stripe is not configured (STRIPE_SECRET_KEY)';
    ownServer({ json: notOpened }, { status: 503, json: { error: refusal } });
    const { user } = renderPage();

    await user.click(await screen.findByRole('button', { name: 'Connect to Stripe' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText("Stripe's onboarding could not start")).toBeTruthy();
    expect(alert.textContent).toContain(refusal);
    expect(assign).not.toHaveBeenCalled();
  });

  it("says why for another member's charity, and offers nothing to start", async () => {
    const refusal = 'Only the member who submitted this charity can connect it to Stripe';
    ownServer({ status: 403, json: { error: refusal } });
    renderPage();

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Could not load its Stripe account')).toBeTruthy();
    expect(alert.textContent).toContain(refusal);
    expect(screen.queryByRole('button', { name: /Stripe/ })).toBeNull();
  });
});
