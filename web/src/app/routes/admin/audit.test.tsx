import type { AdminAuditEntry } from '@qrshirt/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { signInAs } from '@/testing/session';
import { AdminAuditRoute } from './audit';

const entry = (overrides: Partial<AdminAuditEntry>): AdminAuditEntry => ({
  position: 40,
  at: '2026-02-10T09:30:00.000Z',
  adminId: 'olga-uid',
  action: 'reveal-events',
  subject: { type: 'WaitlistJoined', limit: '50', order: 'newest' },
  ...overrides,
});

const erasure = entry({ position: 42, action: 'erase-user', subject: { userId: 'erin-uid' } });
const csv = entry({ position: 41, adminId: 'otto-uid', action: 'download-waitlist-csv', subject: {} });
const reveal = entry({});
const older = entry({ position: 12, action: 'download-replay', subject: { groupBy: 'charity', format: 'csv' } });

describe('the admin audit trail', () => {
  it('shows who did what to whose data, and when, newest first, a page at a time', async () => {
    const server = fakeApi({
      'GET /api/admin/audit': ({ search }) => ({
        json:
          new URLSearchParams(search).get('after') === '40'
            ? { entries: [older], next: null }
            : { entries: [erasure, csv, reveal], next: 40 },
      }),
    });
    signInAs({ uid: 'boss' });
    const { user } = renderRoute(<AdminAuditRoute />);

    const rows = await screen.findAllByTestId('audit-entry');
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(1)
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['olga-uid', 'Erased a person', 'User: erin-uid'],
      ['otto-uid', 'Downloaded the waitlist CSV', 'Every entry'],
      [
        'olga-uid',
        'Revealed names and emails in the event browser',
        'Types: WaitlistJoined; Page size: 50; Order: newest',
      ],
    ]);
    expect(within(rows[0]!).getAllByRole('cell')[0]!.textContent).toMatch(/Feb 10, 2026/);

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getAllByTestId('audit-entry')).toHaveLength(1));
    expect(within(screen.getByTestId('audit-entry')).getByText('Downloaded the replay export')).toBeTruthy();
    expect(within(screen.getByTestId('audit-entry')).getByText('Group by: charity; Format: csv')).toBeTruthy();
    expect(server.to('GET', '/api/admin/audit').map((request) => request.search)).toEqual([
      '?limit=25',
      '?limit=25&after=40',
    ]);
    expect(screen.getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(screen.getAllByTestId('audit-entry')).toHaveLength(3));
  });

  it('says when there is nothing yet, and when the trail could not be loaded', async () => {
    fakeApi({ 'GET /api/admin/audit': { json: { entries: [], next: null } } });
    signInAs({ uid: 'boss' });
    const first = renderRoute(<AdminAuditRoute />);
    expect(await screen.findByText("Nobody has revealed, downloaded or erased anyone's data yet.")).toBeTruthy();
    first.unmount();

    fakeApi({ 'GET /api/admin/audit': { status: 403, json: { error: 'Only administrators can do this' } } });
    renderRoute(<AdminAuditRoute />);
    expect(await screen.findByText('Could not load the audit trail')).toBeTruthy();
    expect(screen.getByText('Only administrators can do this')).toBeTruthy();
  });
});
