import type { AdminOutboxMessage } from '@qrshirt/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, requestUrl } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { signInAs } from '@/testing/session';
import { AdminOutboxRoute } from './outbox';

const message = (overrides: Partial<AdminOutboxMessage>): AdminOutboxMessage => ({
  id: 'm-1',
  channel: 'email',
  to: 'a***@example.com',
  subject: 'Confirm your email address',
  status: 'sent',
  attempts: 1,
  createdAt: '2026-11-20T10:00:00.000Z',
  nextAttemptAt: null,
  sentAt: '2026-11-20T10:00:01.000Z',
  lastError: null,
  ...overrides,
});

const dead = message({
  id: 'm-2',
  status: 'dead',
  attempts: 14,
  sentAt: null,
  lastError: '451 Try again later',
  to: 'b***@example.org',
});
const page = (messages: AdminOutboxMessage[]) => ({
  messages,
  counts: { queued: 0, sent: 1, dead: 1 },
  nextCursor: null,
});

describe('the admin outbox', () => {
  it('lists each message with its status, tries and last error, and retries a dead one', async () => {
    let retried = false;
    const server = fakeApi({
      'GET /api/admin/outbox': () => ({
        json: page([retried ? { ...dead, status: 'queued' as const } : dead, message({})]),
      }),
      'POST /api/admin/outbox/m-2/retry': () => {
        retried = true;
        return { json: { ...dead, status: 'queued' } };
      },
    });
    signInAs({ uid: 'boss' });
    const { user } = renderRoute(<AdminOutboxRoute />);

    const rows = await screen.findAllByTestId('outbox-message');
    expect(rows).toHaveLength(2);
    const first = within(rows[0]!);
    expect(first.getByText('b***@example.org')).toBeTruthy();
    expect(first.getByText('dead')).toBeTruthy();
    expect(first.getByText('14')).toBeTruthy();
    expect(first.getByText('451 Try again later')).toBeTruthy();
    // A sent message has nothing to retry.
    expect(within(rows[1]!).queryByRole('button', { name: /Retry/ })).toBeNull();
    expect(screen.getByText('Dead (1)')).toBeTruthy();

    await user.click(
      first.getByRole('button', { name: 'Retry the message to b***@example.org: Confirm your email address' }),
    );
    expect(server.to('POST', '/api/admin/outbox/m-2/retry')).toHaveLength(1);
    await waitFor(() => expect(within(screen.getAllByTestId('outbox-message')[0]!).getByText('queued')).toBeTruthy());
  });

  it('filters by status and shows a refused retry', async () => {
    fakeApi({
      'GET /api/admin/outbox': () => ({ json: page([dead]) }),
      'POST /api/admin/outbox/m-2/retry': { status: 409, json: { error: 'This message was sent already' } },
    });
    signInAs({ uid: 'boss' });
    const { user } = renderRoute(<AdminOutboxRoute />);
    await screen.findAllByTestId('outbox-message');
    await user.click(screen.getByText('Dead (1)'));
    // The page asks the server for dead messages only (the fake answers every query alike).
    await waitFor(() =>
      expect(vi.mocked(fetch).mock.calls.some(([input]) => requestUrl(input).includes('status=dead'))).toBe(true),
    );
    await user.click(screen.getByRole('button', { name: /^Retry the message/ }));
    expect(await screen.findByText('This message was sent already')).toBeTruthy();
  });
});
