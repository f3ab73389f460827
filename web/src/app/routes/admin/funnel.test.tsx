import type { AdminFunnel } from '@qrshirt/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { signInAs } from '@/testing/session';
import { AdminFunnelRoute } from './funnel';

const steps = (counts: Partial<AdminFunnel['totals']> = {}) => ({
  pageViews: 0,
  shirtClicks: 0,
  waitlistJoins: 0,
  fulfilled: 0,
  claimed: 0,
  scans: 0,
  donations: 0,
  amountRaised: 0,
  ...counts,
});

const funnel = (shirtId: string | null, totals: AdminFunnel['totals']): AdminFunnel => ({
  from: '2026-05-03',
  to: '2026-05-04',
  shirtId,
  totals,
  daily: [
    { date: '2026-05-03', ...totals },
    { date: '2026-05-04', ...steps() },
  ],
  shirts: shirtId === null ? [{ shirtId: 'scan-me', ...totals }] : [],
});

const shirt = (id: string, name: string) => ({
  id,
  name,
  description: '',
  price: 25,
  images: [],
  sizes: ['M'],
  features: [],
});

describe('the admin funnel', () => {
  it('shows every step with its share of the one before, and each shirt by name', async () => {
    fakeApi({
      'GET /api/admin/funnel': {
        json: funnel(
          null,
          steps({ pageViews: 200, shirtClicks: 50, waitlistJoins: 10, scans: 40, donations: 4, amountRaised: 60 }),
        ),
      },
      'GET /api/shirts': { json: [shirt('scan-me', 'Scan Me Maybe')] },
    });
    signInAs({ uid: 'boss' });
    renderRoute(<AdminFunnelRoute />);

    const shop = await screen.findByRole('region', { name: 'From a look to a worn shirt' });
    expect(within(shop).getByTestId('funnel-pageViews').textContent).toBe('200');
    const clicks = within(shop).getByText('Shirt clicks').closest('tr')!;
    expect(within(clicks).getByText('25%')).toBeTruthy();
    // Nothing fulfilled or claimed yet: 0, and no share of a step that had none.
    expect(within(shop).getByTestId('funnel-claimed').textContent).toBe('0');
    const scans = screen.getByRole('region', { name: 'From a scan to a donation' });
    expect(within(scans).getByText('10%')).toBeTruthy();
    expect(screen.getByTestId('funnel-amount-raised').textContent).toBe('$60.00');
    const perShirt = screen.getByRole('region', { name: 'Per shirt' });
    expect(await within(perShirt).findByText('Scan Me Maybe')).toBeTruthy();
  });

  it('asks again for the range and the shirt chosen', async () => {
    const server = fakeApi({
      'GET /api/admin/funnel': (request) => ({
        json: funnel(new URLSearchParams(request.search).get('shirtId'), steps({ pageViews: 3 })),
      }),
      'GET /api/shirts': { json: [shirt('scan-me', 'Scan Me Maybe')] },
    });
    signInAs({ uid: 'boss' });
    const { user } = renderRoute(<AdminFunnelRoute />);
    await screen.findByRole('region', { name: 'Per shirt' });
    expect(server.to('GET', '/api/admin/funnel')[0]!.search).toBe('');

    await user.type(screen.getByLabelText('From'), '2026-05-01');
    await user.click(screen.getByRole('combobox', { name: 'Shirt' }));
    await user.click(await screen.findByRole('option', { name: 'Scan Me Maybe' }));
    await waitFor(() =>
      expect(server.to('GET', '/api/admin/funnel').at(-1)!.search).toBe('?from=2026-05-01&shirtId=scan-me'),
    );
    expect(await screen.findByText('Nothing happened in this range yet.')).toBeTruthy();
  });

  it('offers to try again when the funnel cannot be loaded', async () => {
    fakeApi({
      'GET /api/admin/funnel': { status: 400, json: { error: 'from must not be after to' } },
      'GET /api/shirts': { json: [] },
    });
    signInAs({ uid: 'boss' });
    renderRoute(<AdminFunnelRoute />);
    expect(await screen.findByText('Could not load the funnel')).toBeTruthy();
    expect(screen.getByText('from must not be after to')).toBeTruthy();
  });
});
