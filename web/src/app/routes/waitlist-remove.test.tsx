import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { WaitlistRemoveRoute } from './waitlist-remove';

function renderAt(hash: string) {
  return renderRoute(<WaitlistRemoveRoute />, {
    path: '/waitlist/remove',
    at: { pathname: '/waitlist/remove', hash },
    routes: [{ path: '/shop', element: <p>Shop page</p> }],
  });
}

describe('the waitlist removal page', () => {
  it('sends the link’s token only when asked, takes it out of the address and says what was erased', async () => {
    const server = fakeApi({ 'POST /api/waitlist/remove': { json: { removed: true } } });
    const { router } = renderAt('#token=the-token');
    await waitFor(() => expect(router.state.location.hash).toBe(''));
    // Opened by a mail scanner or a preview, the page removes nothing.
    expect(server.requests).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Remove me and erase my data' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'You are off the waitlist, and the name and email address you gave us are erased. We will not email you about this shirt again.',
    );
    expect(server.to('POST', '/api/waitlist/remove').map((request) => request.body)).toEqual([{ token: 'the-token' }]);
    expect(screen.getByRole('link', { name: 'Back to Shop' }).getAttribute('href')).toBe('/shop');
  });

  it('shows the server’s reason for a link used already', async () => {
    fakeApi({
      'POST /api/waitlist/remove': {
        status: 404,
        json: { error: 'This waitlist entry has been removed already' },
      },
    });
    renderAt('#token=used');
    await userEvent.click(await screen.findByRole('button', { name: 'Remove me and erase my data' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This waitlist entry has been removed already');
  });

  it('explains what to do when opened without a link', async () => {
    const server = fakeApi({});
    renderAt('');
    expect((await screen.findByRole('alert')).textContent).toMatch(/needs the removal link/);
    expect(screen.queryByRole('button', { name: 'Remove me and erase my data' })).toBeNull();
    expect(server.requests).toEqual([]);
  });
});
