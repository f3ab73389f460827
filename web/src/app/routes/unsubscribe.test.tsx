import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { UnsubscribeRoute } from './unsubscribe';

function renderAt(hash: string) {
  return renderRoute(<UnsubscribeRoute />, { path: '/unsubscribe', at: { pathname: '/unsubscribe', hash } });
}

describe('the unsubscribe page', () => {
  it('spends the link’s token without a session, says the summaries stop and takes it out of the address', async () => {
    const server = fakeApi({ 'POST /api/unsubscribe': { json: { dailySummary: false } } });
    const { router } = renderAt('#token=the-token');
    expect((await screen.findByText('You will no longer receive daily summaries.')).textContent).toBeTruthy();
    expect(server.to('POST', '/api/unsubscribe').map((request) => request.body)).toEqual([{ token: 'the-token' }]);
    expect(server.to('POST', '/api/unsubscribe')[0]!.headers.authorization).toBeUndefined();
    await waitFor(() => expect(router.state.location.hash).toBe(''));
  });

  it('shows the server’s reason for a link that is not ours', async () => {
    fakeApi({
      'POST /api/unsubscribe': {
        status: 404,
        json: { error: 'This unsubscribe link is not valid. Turn the daily summary off in your profile.' },
      },
    });
    renderAt('#token=forged');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This unsubscribe link is not valid. Turn the daily summary off in your profile.',
    );
  });

  it('explains what to do when opened without a link', async () => {
    const server = fakeApi({});
    renderAt('');
    expect((await screen.findByRole('alert')).textContent).toMatch(/needs the link from a daily summary email/);
    expect(server.requests).toEqual([]);
  });
});
