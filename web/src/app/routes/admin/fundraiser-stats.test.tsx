import type { FundraiserStats } from '@qrshirt/contracts';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { signInAs } from '@/testing/session';
import { AdminFundraiserStatsRoute } from './fundraiser-stats';

const stats: FundraiserStats = {
  scans: 1234,
  scanRequests: 1500,
  donations: 7,
  amountRaised: 85,
  amountReported: 10,
  testDonations: 0,
  testAmountRaised: 0,
  byCharity: [],
  daily: [],
};

describe("an operator reads a fundraiser's figures", () => {
  it('asks for the id typed, and shows the figures its owner sees', async () => {
    const server = fakeApi({ 'GET /api/admin/fundraisers/shirt-42/stats': { json: stats } });
    signInAs({ uid: 'boss' });
    const { user, router } = renderRoute(<AdminFundraiserStatsRoute />, { at: '/admin/fundraisers' });
    expect(server.to('GET', '/api/admin/fundraisers/shirt-42/stats')).toHaveLength(0);

    await user.type(screen.getByLabelText('Fundraiser id'), ' shirt-42 ');
    await user.click(screen.getByRole('button', { name: 'Show' }));

    expect((await screen.findByTestId('total-scans')).textContent).toBe('1,234');
    expect(screen.getByTestId('total-raised').textContent).toBe('$85.00');
    expect(screen.getByTestId('fundraiser-counts').textContent).toBe(
      '7 confirmed donations; 1,500 scan requests, counted or not',
    );
    expect(router.state.location.search).toBe('?id=shirt-42');
    expect(server.to('GET', '/api/admin/fundraisers/shirt-42/stats')).toHaveLength(1);
  });

  it('says so when there is no such fundraiser', async () => {
    fakeApi({ 'GET /api/admin/fundraisers/nope/stats': { status: 404, json: { error: 'Fundraiser not found' } } });
    signInAs({ uid: 'boss' });
    renderRoute(<AdminFundraiserStatsRoute />, { at: '/admin/fundraisers?id=nope' });
    expect(await screen.findByText('Could not load the figures')).toBeTruthy();
    expect(screen.getByText('Fundraiser not found')).toBeTruthy();
  });
});
