import type { AdminWaitlistEntry, AdminWaitlistStats } from '@qrshirt/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { captureDownloads, textOf } from '@/testing/downloads';
import { fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { signInAs } from '@/testing/session';
import { AdminWaitlistRoute } from './waitlist';

const entry = (overrides: Partial<AdminWaitlistEntry>): AdminWaitlistEntry => ({
  id: 'e-1',
  name: 'Wren Waiter',
  email: 'wren@example.com',
  size: 'M',
  charityId: 'water',
  charityName: 'Clean Water',
  shirtId: 'scan-me',
  shirtName: 'Scan Me Maybe',
  joinedAt: '2026-05-03T10:00:00.000Z',
  status: 'waiting',
  fundraiserId: null,
  ...overrides,
});

const stats: AdminWaitlistStats = {
  total: 3,
  byShirt: { 'scan-me': 2, 'plot-twist': 1 },
  bySize: { M: 2, L: 1 },
  byCharity: { water: 3 },
  byShirtAndSize: { 'scan-me': { M: 1, L: 1 }, 'plot-twist': { M: 1 } },
  shirtNames: { 'scan-me': 'Scan Me Maybe', 'plot-twist': 'Plot Twist' },
  charityNames: { water: 'Clean Water' },
};

const waiting = entry({});
const fulfilled = entry({
  id: 'e-2',
  name: 'Fay Fulfilled',
  email: 'fay@example.com',
  status: 'fulfilled',
  fundraiserId: 'abcdefghjk',
});
const claimed = entry({
  id: 'e-3',
  name: 'Cal Claimed',
  email: 'cal@example.com',
  status: 'claimed',
  fundraiserId: 'mnpqrstuvw',
});

const fulfilledAnswer = {
  entryId: 'e-1',
  status: 'fulfilled',
  fundraiser: { id: 'xyz2345678', userId: null, charityId: 'water', shirtId: 'scan-me', name: 'Scan Me Maybe' },
  qr: {
    svg: '/api/fundraisers/xyz2345678/qr.svg',
    png: '/api/fundraisers/xyz2345678/qr.png',
    target: 'https://shirts.example/fundraiser/xyz2345678?scan=true',
  },
};

function renderWaitlist(routes: Parameters<typeof fakeApi>[0]) {
  const server = fakeApi({ 'GET /api/admin/waitlist': { json: stats }, ...routes });
  signInAs({ uid: 'boss' });
  return { server, ...renderRoute(<AdminWaitlistRoute />) };
}

const rowOf = async (name: string) =>
  (await screen.findAllByTestId('waitlist-entry')).find((row) => within(row).queryByText(name))!;

describe('the admin waitlist', () => {
  it('shows where each entry is: waiting, fulfilled or claimed, offering Fulfil while it waits and a new link until claimed', async () => {
    renderWaitlist({
      'GET /api/admin/waitlist/entries': { json: { entries: [waiting, fulfilled, claimed], next: null } },
    });
    expect(within(await rowOf('Wren Waiter')).getByText('waiting')).toBeTruthy();
    expect(within(await rowOf('Fay Fulfilled')).getByText('fulfilled')).toBeTruthy();
    expect(within(await rowOf('Cal Claimed')).getByText('claimed')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /^Fulfil the entry/ })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: /^Resend claim link/ })).toHaveLength(1);
  });

  it('shows a removed entry’s erased name and email as (erased), with nothing to do for it', async () => {
    const removed = entry({ id: 'e-4', name: null, email: null, status: 'removed', fundraiserId: 'mnpqrstuvw' });
    renderWaitlist({ 'GET /api/admin/waitlist/entries': { json: { entries: [removed], next: null } } });
    const row = await rowOf('removed');
    expect(within(row).getAllByText('(erased)')).toHaveLength(2);
    expect(within(row).queryAllByRole('button')).toEqual([]);
  });

  it('mails a fulfilled entry a new claim link, and says when its person claimed meanwhile', async () => {
    let claimedMeanwhile = false;
    const { server, user } = renderWaitlist({
      'GET /api/admin/waitlist/entries': () => ({
        json: { entries: [claimedMeanwhile ? { ...fulfilled, status: 'claimed' } : fulfilled], next: null },
      }),
      'POST /api/admin/waitlist/entries/e-2/claim-link': () => {
        if (server.to('POST', '/api/admin/waitlist/entries/e-2/claim-link').length === 1) {
          return { json: { ...fulfilledAnswer, entryId: 'e-2' } };
        }
        claimedMeanwhile = true;
        return { status: 409, json: { error: "This entry's shirt has been claimed already" } };
      },
    });
    const resend = await screen.findByRole('button', { name: 'Resend claim link to Fay Fulfilled (fay@example.com)' });
    expect(resend.textContent).toBe('Resend claim link');
    await user.click(resend);
    expect(
      await screen.findByText(
        'Fay Fulfilled has been mailed a new claim link, good for 30 days. The earlier link no longer works.',
      ),
    ).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Resend claim link to Fay Fulfilled (fay@example.com)' }));
    expect(await screen.findByText("This entry's shirt has been claimed already")).toBeTruthy();
    expect(screen.getByText('No new claim link')).toBeTruthy();
    await waitFor(() => expect(within(screen.getByTestId('waitlist-entry')).getByText('claimed')).toBeTruthy());
    expect(screen.queryByRole('button', { name: /^Resend claim link/ })).toBeNull();
    expect(server.to('POST', '/api/admin/waitlist/entries/e-2/claim-link')).toHaveLength(2);
  });

  it('fulfils an entry, then shows it fulfilled and where to get its QR code', async () => {
    let done = false;
    const { server, user } = renderWaitlist({
      'GET /api/admin/waitlist/entries': () => ({
        json: {
          entries: [done ? { ...waiting, status: 'fulfilled', fundraiserId: 'xyz2345678' } : waiting],
          next: null,
        },
      }),
      'POST /api/admin/waitlist/entries/e-1/fulfil': () => {
        done = true;
        return { status: 201, json: fulfilledAnswer };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Fulfil the entry of Wren Waiter (wren@example.com)' }));

    const toast = (await screen.findByText('Scan Me Maybe fulfilled')).closest<HTMLElement>(
      '.mantine-Notification-root',
    )!;
    expect(within(toast).getByText('Wren Waiter has been mailed a claim link. Short code: xyz2345678')).toBeTruthy();
    expect(within(toast).getByRole('link', { name: 'QR code (SVG)' }).getAttribute('href')).toBe(
      '/api/fundraisers/xyz2345678/qr.svg',
    );
    expect(within(toast).getByRole('link', { name: 'QR code (PNG)' }).getAttribute('href')).toBe(
      '/api/fundraisers/xyz2345678/qr.png',
    );
    expect(within(await rowOf('Wren Waiter')).getByText('fulfilled')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Fulfil the entry/ })).toBeNull();
    expect(server.to('POST', '/api/admin/waitlist/entries/e-1/fulfil')).toHaveLength(1);
  });

  it("shows the server's reason when the entry was fulfilled already, and the entry as it is now", async () => {
    let answered = false;
    const { user } = renderWaitlist({
      'GET /api/admin/waitlist/entries': () => ({
        json: {
          entries: [answered ? { ...waiting, status: 'fulfilled', fundraiserId: 'other12345' } : waiting],
          next: null,
        },
      }),
      'POST /api/admin/waitlist/entries/e-1/fulfil': () => {
        answered = true;
        return { status: 409, json: { error: 'This waitlist entry has been fulfilled already' } };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Fulfil the entry of Wren Waiter (wren@example.com)' }));
    expect(await screen.findByText('This waitlist entry has been fulfilled already')).toBeTruthy();
    expect(screen.getByText('Not fulfilled')).toBeTruthy();
    await waitFor(() => expect(within(screen.getByTestId('waitlist-entry')).getByText('fulfilled')).toBeTruthy());
  });

  it('fulfils every waiting entry of a shirt in a size and saves their QR codes as a PDF', async () => {
    const saved = captureDownloads();
    const { server, user } = renderWaitlist({
      'GET /api/admin/waitlist/entries': { json: { entries: [waiting], next: null } },
      'POST /api/admin/waitlist/fulfil': { text: '%PDF-1.7 the sheet' },
    });
    const form = await screen.findByRole('form', { name: 'QR sheet' });
    await user.click(within(form).getByRole('combobox', { name: 'Shirt' }));
    await user.click(await screen.findByRole('option', { name: 'Scan Me Maybe' }));
    await user.click(within(form).getByRole('combobox', { name: 'Size' }));
    await user.click(await screen.findByRole('option', { name: 'L' }));
    await user.click(within(form).getByRole('button', { name: 'Print QR sheet' }));

    expect(await within(form).findByText('Downloaded qr-sheet-scan-me-L.pdf.')).toBeTruthy();
    const [request] = server.to('POST', '/api/admin/waitlist/fulfil');
    expect(request!.body).toEqual({ shirtId: 'scan-me', size: 'L' });
    expect(request!.headers.authorization).toBe('Bearer token-boss');
    expect(saved.name).toBe('qr-sheet-scan-me-L.pdf');
    expect(await textOf(saved.blob!)).toBe('%PDF-1.7 the sheet');
  });

  it("says why no sheet came when the server refuses, in the server's words", async () => {
    const { user } = renderWaitlist({
      'GET /api/admin/waitlist/entries': { json: { entries: [], next: null } },
      'POST /api/admin/waitlist/fulfil': {
        status: 404,
        json: { error: 'No entry for Plot Twist in size M is waiting' },
      },
    });
    const form = await screen.findByRole('form', { name: 'QR sheet' });
    await user.click(within(form).getByRole('combobox', { name: 'Shirt' }));
    await user.click(await screen.findByRole('option', { name: 'Plot Twist' }));
    await user.click(within(form).getByRole('combobox', { name: 'Size' }));
    await user.click(await screen.findByRole('option', { name: 'M' }));
    await user.click(within(form).getByRole('button', { name: 'Print QR sheet' }));
    expect((await within(form).findByRole('alert')).textContent).toContain(
      'No entry for Plot Twist in size M is waiting',
    );
  });
});
