import type { AdminReconciliation } from '@qrshirt/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { signInAs } from '@/testing/session';
import { AdminReconcileRoute } from './reconcile';

const reconciliation = (differences: AdminReconciliation['differences']): AdminReconciliation => ({
  from: '2026-03-01T00:00:00.000Z',
  to: '2026-03-31T23:59:59.999Z',
  live: true,
  payments: 2,
  accounts: 1,
  others: 3,
  differences,
});

async function compare(user: ReturnType<typeof renderRoute>['user']) {
  await user.type(screen.getByLabelText(/^From/), '2026-03-01');
  await user.type(screen.getByLabelText(/^To/), '2026-03-31');
  await user.click(screen.getByRole('button', { name: 'Compare with Stripe' }));
}

describe('the admin reconciliation', () => {
  it('asks for the period chosen, and lists each difference in dollars', async () => {
    const server = fakeApi({
      'GET /api/admin/reconcile': {
        json: reconciliation([
          { subject: 'payment', id: 'pi_a', charityId: null, figure: 'fees', ledger: 2.04, stripe: 2.5 },
          { subject: 'charity', id: 'acct_c1', charityId: 'c-1', figure: 'transfers', ledger: 85, stripe: 80 },
        ]),
      },
    });
    signInAs({ uid: 'boss' });
    const { user } = renderRoute(<AdminReconcileRoute />);
    // Nothing is asked of Stripe before a period is.
    expect(server.to('GET', '/api/admin/reconcile')).toEqual([]);
    await compare(user);

    const table = await screen.findByRole('region', { name: 'Differences' });
    const fee = within(table).getByText('Payment pi_a').closest('tr')!;
    expect([...fee.querySelectorAll('td')].map((cell) => cell.textContent)).toEqual([
      'Payment pi_a',
      "Stripe's fees",
      '$2.04',
      '$2.50',
    ]);
    const transfer = within(table).getByText('Charity c-1, account acct_c1').closest('tr')!;
    expect(within(transfer).getByText('$85.00')).toBeTruthy();
    expect(within(transfer).getByText('$80.00')).toBeTruthy();
    expect(server.to('GET', '/api/admin/reconcile')[0]!.search).toBe('?from=2026-03-01&to=2026-03-31');
  });

  it('says when the ledger and Stripe agree', async () => {
    fakeApi({ 'GET /api/admin/reconcile': { json: reconciliation([]) } });
    signInAs({ uid: 'boss' });
    const { user } = renderRoute(<AdminReconcileRoute />);
    await compare(user);
    expect(await screen.findByText('No differences: the ledger and Stripe agree on this period.')).toBeTruthy();
    expect(screen.getByTestId('reconcile-summary').textContent).toMatch(
      /^2 payments and 1 connected accounts compared/,
    );
    expect(screen.queryByRole('region', { name: 'Differences' })).toBeNull();
  });

  it("says the gateway's words when Stripe is not configured there", async () => {
    fakeApi({
      'GET /api/admin/reconcile': {
        status: 503,
        json: { error: 'Reconciling needs Stripe, which is not configured here (STRIPE_SECRET_KEY)' },
      },
    });
    signInAs({ uid: 'boss' });
    const { user } = renderRoute(<AdminReconcileRoute />);
    await compare(user);
    expect(await screen.findByText('Could not load the reconciliation')).toBeTruthy();
    expect(screen.getByText('Reconciling needs Stripe, which is not configured here (STRIPE_SECRET_KEY)')).toBeTruthy();
  });
});
