import type { AdminCharity } from '@qrshirt/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { cacheEntryKeys, cacheKeys, setCached } from '@/lib/cache';
import { fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { signInAs } from '@/testing/session';
import { AdminCharitiesRoute } from './charities';

const inShop: AdminCharity = {
  id: 'water',
  name: 'Clean Water',
  mission: 'Water for all.',
  website_url: 'https://water.example',
  legalName: 'Clean Water Trust, Inc.',
  taxId: '12-3456789',
  status: 'approved',
  createdBy: null,
  createdAt: '2026-11-01T10:00:00.000Z',
};

const submitted = (overrides: Partial<AdminCharity>): AdminCharity => ({
  id: 'bees',
  name: 'Bees Please',
  mission: 'Keeps city bees fed through the winter.',
  website_url: 'https://bees.example.org',
  status: 'pending',
  createdBy: 'member-1',
  createdAt: '2026-11-20T10:00:00.000Z',
  ...overrides,
});
const bees = submitted({});
const owls = submitted({ id: 'owls', name: 'Owl Rescue', website_url: 'https://owls.example.org' });

/** The review queue as the server holds it: approve and reject move charities out of it. */
function reviewServer(pending: AdminCharity[], rejected: AdminCharity[] = [], approved = [inShop]) {
  const state = { pending: [...pending], rejected: [...rejected], approved: [...approved] };
  const withoutIt = (list: AdminCharity[], id: string) => list.filter((charity) => charity.id !== id);
  return fakeApi({
    'GET /api/admin/charities': (request) => ({
      json: {
        charities: state[(new URLSearchParams(request.search).get('status') ?? 'pending') as keyof typeof state],
      },
    }),
    'POST /api/admin/charities/bees/approve': () => {
      state.pending = withoutIt(state.pending, 'bees');
      state.approved.push({ ...bees, status: 'approved' });
      return {
        json: { id: 'bees', name: bees.name, mission: bees.mission, website_url: bees.website_url, status: 'approved' },
      };
    },
    'GET /api/charity/bees': () =>
      state.approved.some((charity) => charity.id === 'bees')
        ? {
            json: {
              id: 'bees',
              name: bees.name,
              mission: bees.mission,
              website_url: bees.website_url,
              status: 'approved',
            },
          }
        : { status: 404, json: { error: 'Charity not found' } },
    'POST /api/admin/charities/owls/reject': (request) => {
      const { reason } = request.body as { reason: string };
      if (!reason.trim())
        return { status: 400, json: { error: 'Reason is required', fields: { reason: 'Reason is required' } } };
      state.pending = withoutIt(state.pending, 'owls');
      const rejectedOwls = { ...owls, status: 'rejected' as const, rejectionReason: reason.trim() };
      state.rejected.push(rejectedOwls);
      return { json: rejectedOwls };
    },
  });
}

describe('the admin charities screen', () => {
  it('counts the charities waiting for review, and approving one puts it in the shop', async () => {
    const server = reviewServer([bees, owls]);
    signInAs({ uid: 'boss' });
    setCached(cacheKeys.charities, [inShop], 60_000);
    const { user } = renderRoute(<AdminCharitiesRoute />);

    // The shop's charities first; the tab says how many wait.
    expect(await screen.findByRole('cell', { name: 'Clean Water' })).toBeTruthy();
    await user.click(await screen.findByRole('tab', { name: 'Pending (2)' }));
    const rows = await screen.findAllByTestId('charity-for-review');
    expect(rows).toHaveLength(2);
    const first = within(rows[0]!);
    expect(first.getByText('Bees Please')).toBeTruthy();
    expect(first.getByRole('link', { name: 'https://bees.example.org' })).toBeTruthy();
    expect(first.getByText('by member-1')).toBeTruthy();

    await user.click(first.getByRole('button', { name: 'Approve Bees Please' }));
    expect(await screen.findByText('Charity approved')).toBeTruthy();
    expect(server.to('POST', '/api/admin/charities/bees/approve')).toHaveLength(1);
    // It waited for the shop to show it, and the browser's cached charity list is gone.
    expect(server.to('GET', '/api/charity/bees').length).toBeGreaterThanOrEqual(1);
    expect(cacheEntryKeys()).toEqual([]);
    await waitFor(() => expect(screen.getAllByTestId('charity-for-review')).toHaveLength(1));
    expect(screen.getByRole('tab', { name: 'Pending (1)' })).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'In the shop' }));
    expect(await screen.findByRole('cell', { name: 'Bees Please' })).toBeTruthy();
  });

  it("shows what each charity's donors' receipts name: its legal name and tax id, or its name and none", async () => {
    reviewServer([bees], [], [inShop, { ...bees, id: 'hives', name: 'Hive Help', status: 'approved' }]);
    signInAs({ uid: 'boss' });
    renderRoute(<AdminCharitiesRoute />);

    const water = within((await screen.findByRole('cell', { name: 'Clean Water' })).closest('tr')!);
    expect(water.getByText('Clean Water Trust, Inc.')).toBeTruthy();
    expect(water.getByText('EIN 12-3456789')).toBeTruthy();
    const hives = within(screen.getByRole('cell', { name: 'Hive Help' }).closest('tr')!);
    expect(hives.getAllByText('Hive Help')).toHaveLength(2);
    expect(hives.getByText('No tax id')).toBeTruthy();
  });

  it('links each charity in the shop, and none waiting for review, to its Payouts page', async () => {
    reviewServer([bees]);
    signInAs({ uid: 'boss' });
    const { user } = renderRoute(<AdminCharitiesRoute />);

    const payouts = await screen.findByRole('link', { name: 'Payouts of Clean Water' });
    expect(payouts.getAttribute('href')).toBe('/admin/charities/water/payouts');
    await user.click(screen.getByRole('tab', { name: 'Pending (1)' }));
    await screen.findByTestId('charity-for-review');
    expect(screen.queryByRole('link', { name: /^Payouts of/ })).toBeNull();
  });

  it('rejects with a reason, which it asks for, and the Rejected tab shows it', async () => {
    const server = reviewServer([owls]);
    signInAs({ uid: 'boss' });
    const { user } = renderRoute(<AdminCharitiesRoute />);

    await user.click(await screen.findByRole('tab', { name: 'Pending (1)' }));
    await user.click(await screen.findByRole('button', { name: 'Reject Owl Rescue' }));
    const form = await screen.findByRole('form', { name: 'Reject Owl Rescue' });
    await user.click(within(form).getByRole('button', { name: 'Reject charity' }));
    const reason = within(form).getByLabelText('Reason');
    await waitFor(() => expect(reason.getAttribute('aria-invalid')).toBe('true'));
    expect(within(form).getByText('Reason is required')).toBeTruthy();

    await user.type(reason, 'We could not find it in any register.');
    await user.click(within(form).getByRole('button', { name: 'Reject charity' }));
    expect(await screen.findByText('Charity rejected')).toBeTruthy();
    expect(server.to('POST', '/api/admin/charities/owls/reject').at(-1)!.body).toEqual({
      reason: 'We could not find it in any register.',
    });
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Reject Owl Rescue' })).toBeNull());
    expect(await screen.findByText('Nothing here.')).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Rejected' }));
    const row = within(await screen.findByTestId('charity-for-review'));
    expect(row.getByText('We could not find it in any register.')).toBeTruthy();
    // Rejected, it can still be approved, but not rejected again.
    expect(row.getByRole('button', { name: 'Approve Owl Rescue' })).toBeTruthy();
    expect(row.queryByRole('button', { name: 'Reject Owl Rescue' })).toBeNull();
  });

  it('never renders a submitted website that is not a web address as a link', async () => {
    reviewServer([submitted({ website_url: 'javascript:alert(1)' })]);
    signInAs({ uid: 'boss' });
    const { user } = renderRoute(<AdminCharitiesRoute />);
    await user.click(await screen.findByRole('tab', { name: 'Pending (1)' }));
    const row = within(await screen.findByTestId('charity-for-review'));
    expect(row.getByText('javascript:alert(1)')).toBeTruthy();
    expect(row.queryByRole('link')).toBeNull();
  });
});
