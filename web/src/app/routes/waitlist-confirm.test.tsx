import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { WaitlistConfirmRoute } from './waitlist-confirm';

function renderAt(hash: string) {
  return renderRoute(<WaitlistConfirmRoute />, {
    path: '/waitlist/confirm',
    at: { pathname: '/waitlist/confirm', hash },
    routes: [{ path: '/shop', element: <p>Shop page</p> }],
  });
}

describe('the waitlist confirmation page', () => {
  it('sends the link’s token once, takes it out of the address and says what comes next', async () => {
    const server = fakeApi({
      'POST /api/waitlist/confirm': {
        json: { confirmed: true, shirtId: 'scan-me-maybe', shirtName: 'Scan Me Maybe', size: 'M' },
      },
    });
    const { router } = renderAt('#token=the-token');
    expect((await screen.findByText(/Your place is confirmed/)).textContent).toBe(
      'Your place is confirmed: we will email you as soon as your Scan Me Maybe in size M is ready.',
    );
    expect(server.to('POST', '/api/waitlist/confirm').map((request) => request.body)).toEqual([{ token: 'the-token' }]);
    await waitFor(() => expect(router.state.location.hash).toBe(''));
    expect(screen.getByRole('link', { name: 'Back to Shop' }).getAttribute('href')).toBe('/shop');
  });

  it('shows the server’s reason for a link that is not ours', async () => {
    fakeApi({
      'POST /api/waitlist/confirm': {
        status: 404,
        json: { error: 'This confirmation link is not valid: open the link from the email exactly as it came' },
      },
    });
    renderAt('#token=forged');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This confirmation link is not valid: open the link from the email exactly as it came',
    );
  });

  it('explains what to do when opened without a link', async () => {
    const server = fakeApi({});
    renderAt('');
    expect((await screen.findByRole('alert')).textContent).toMatch(/needs the link from the email/);
    expect(server.requests).toEqual([]);
  });
});
