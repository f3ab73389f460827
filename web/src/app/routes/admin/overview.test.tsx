import type { AdminOverview } from '@qrshirt/contracts';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { signInAs } from '@/testing/session';
import { AdminOverviewRoute } from './overview';

const overview: AdminOverview = {
  totals: {
    scans: 40,
    scanRequests: 52,
    donations: 3,
    amountRaised: 35.75,
    testDonations: 7,
    testAmountRaised: 120,
    fundraisers: 3,
    users: 2,
  },
  daily: [],
  topFundraisers: [],
  topCharities: [],
};

function renderOverview() {
  fakeApi({ 'GET /api/admin/overview': { json: overview } });
  signInAs({ uid: 'boss' });
  renderRoute(<AdminOverviewRoute />);
}

describe('the admin overview', () => {
  afterEach(() => {
    document.querySelector('meta[name="qrshirt-demo-mode"]')?.remove();
  });

  it('shows the live money only, unlabelled, with live keys', async () => {
    renderOverview();
    expect((await screen.findByTestId('total-amount-raised')).textContent).toBe('$35.75');
    expect(screen.getByTestId('total-donations').textContent).toBe('3');
    expect(screen.queryByTestId('demo-money-label')).toBeNull();
  });

  it('shows the test money in its place in demo mode, labelled', async () => {
    document.head.insertAdjacentHTML('beforeend', '<meta name="qrshirt-demo-mode" content="true">');
    renderOverview();
    expect((await screen.findByTestId('total-amount-raised')).textContent).toBe('$120.00');
    expect(screen.getByTestId('total-donations').textContent).toBe('7');
    expect(screen.getByTestId('demo-money-label').textContent).toBe('Demo: no real money');
  });
});
