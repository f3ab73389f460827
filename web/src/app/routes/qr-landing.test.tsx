import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { deferred, type FakeAnswer, fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { tapTryAgain } from '@/testing/try-again';
import { resetAuthState, updateAuthState } from '@/lib/auth/session-store';
import { createQueryClient } from '@/lib/query-client';
import { signInAs } from '@/testing/session';
import { QrLandingRoute } from './qr-landing';

const fundraiser = {
  id: 'f-1',
  charityId: 'ocean',
  shirtId: 'scan-me-maybe',
  name: 'Scan Me Maybe',
  goal: null,
  amountRaised: 30,
};

/** The gateway's answer names no owner: it says `owned` to the owner's token alone. */
const answeredAsTheGatewayDoes =
  (details: { goal?: number | null; amountRaised?: number } = {}) =>
  ({ headers }: { headers: Record<string, string> }) => ({
    json: { ...fundraiser, ...details, owned: headers.authorization === 'Bearer token-owner-1' },
  });
const charity = { id: 'ocean', name: 'Ocean Friends', mission: 'Cleaner seas.', website_url: 'https://ocean.example' };
const ownerStats = {
  scans: 12,
  scanRequests: 15,
  donations: 2,
  amountRaised: 30,
  amountReported: 0,
  testDonations: 0,
  testAmountRaised: 0,
  byCharity: [{ charityId: 'ocean', scans: 12, donations: 2, amountRaised: 30 }],
  daily: [],
};

function routes(extra: Parameters<typeof fakeApi>[0] = {}) {
  return fakeApi({
    'GET /api/fundraisers/f-1': answeredAsTheGatewayDoes(),
    'GET /api/charity/ocean': { json: charity },
    'GET /api/fundraisers/f-1/stats': { json: ownerStats },
    'POST /api/fundraisers/f-1/scan': { status: 202, json: { scanId: 's-1' } },
    ...extra,
  });
}

function renderQrPage(at = '/fundraiser/f-1') {
  return renderRoute(<QrLandingRoute />, { path: '/fundraiser/:fundraiserId', at });
}

/** What the donation widget does when a donation completes. */
function widgetReports(data: unknown, origin = window.location.origin) {
  const frame = screen.getByTitle<HTMLIFrameElement>('Donation widget');
  act(() => {
    fireEvent(window, new MessageEvent('message', { data, origin, source: frame.contentWindow }));
  });
}

/** The recording's answer handled: its mutation succeeded, which runs the card's onRecorded. */
async function recordingAnswered(queryClient: QueryClient): Promise<void> {
  await waitFor(() =>
    expect(
      queryClient
        .getMutationCache()
        .getAll()
        .map((mutation) => mutation.state.status),
    ).toEqual(['success']),
  );
}

describe('the QR landing page', () => {
  it('shows how far the shirt is towards its goal, in confirmed money, and no bar without a goal', async () => {
    routes({ 'GET /api/fundraisers/f-1': answeredAsTheGatewayDoes({ goal: 120, amountRaised: 30 }) });
    renderQrPage();
    const bar = await screen.findByRole('progressbar', { name: 'Raised for Ocean Friends, towards the goal' });
    expect(bar.getAttribute('aria-valuenow')).toBe('25');
    expect(screen.getByText('$30.00 raised of $120.00 goal')).toBeTruthy();
  });

  it("shows the owner what was raised for each charity the shirt supported, by the charity's name", async () => {
    routes({
      'GET /api/fundraisers/f-1/stats': {
        json: {
          ...ownerStats,
          byCharity: [
            { charityId: 'trees', scans: 10, donations: 1, amountRaised: 20 },
            { charityId: 'ocean', scans: 2, donations: 1, amountRaised: 10 },
          ],
        },
      },
      'GET /api/charities': {
        json: [charity, { id: 'trees', name: 'Trees Again', mission: 'Trees.', website_url: 'https://trees.example' }],
      },
    });
    signInAs({ uid: 'owner-1', displayName: 'Olive' });
    renderQrPage();
    const table = await screen.findByRole('table', { name: 'Raised per charity' });
    const trees = (await within(table).findByText('Trees Again')).closest('tr')!;
    expect(within(trees).getByText('$20.00')).toBeTruthy();
    expect(within(table).getByText('Ocean Friends')).toBeTruthy();
  });

  it('shows no goal bar when the owner set no goal', async () => {
    routes();
    renderQrPage();
    expect(await screen.findByText('About This Cause')).toBeTruthy();
    expect(screen.queryByTestId('goal-progress')).toBeNull();
  });

  it('shows a skeleton, then the joke, the donation widget for this fundraiser and the cause', async () => {
    routes();
    renderQrPage();
    expect(screen.getByLabelText('Loading the fundraiser')).toBeTruthy();
    expect(await screen.findByText("Plot twist: you just scanned a stranger's shirt.")).toBeTruthy();
    const frame = screen.getByTitle<HTMLIFrameElement>('Donation widget');
    expect(new URL(frame.src).searchParams.get('fundraiserId')).toBe('f-1');
    expect(screen.getByText('About This Cause')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Learn more about Ocean Friends' }).getAttribute('href')).toBe(
      'https://ocean.example',
    );
    expect(screen.getByText('Thanks for being curious! 🙌')).toBeTruthy();
    expect(screen.queryByText('Impact Stats')).toBeNull();
  });

  it('records a scan only when the address says scan=true, once, and then drops the flag', async () => {
    const api = routes();
    const { router } = renderQrPage('/fundraiser/f-1?scan=true');
    await waitFor(() => expect(api.to('POST', '/api/fundraisers/f-1/scan')).toHaveLength(1));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await screen.findByText('About This Cause');
    expect(api.to('POST', '/api/fundraisers/f-1/scan')).toHaveLength(1);
  });

  it('records no scan for a plain visit', async () => {
    const api = routes();
    renderQrPage();
    await screen.findByText('About This Cause');
    expect(api.to('POST', '/api/fundraisers/f-1/scan')).toHaveLength(0);
  });

  it("shows the owner their fundraiser's Total Scans and Total Raised", async () => {
    routes();
    signInAs({ uid: 'owner-1', displayName: 'Olive' });
    renderQrPage();
    expect((await screen.findByTestId('total-scans')).textContent).toBe('12');
    expect(screen.getByTestId('total-raised').textContent).toBe('$30.00');
  });

  it('shows no figures to anyone but the owner, and asks for none: a stranger, an anonymous session, nobody', async () => {
    for (const visitor of [{ uid: 'stranger-1' }, { uid: 'anon-1', anonymous: true }, null]) {
      const api = routes();
      if (visitor) signInAs(visitor);
      const page = renderQrPage();
      expect(await screen.findByText('About This Cause')).toBeTruthy();
      // A signed-in stranger's page asked the gateway with their token, which said it is not theirs.
      if (visitor && !visitor.anonymous) {
        await waitFor(() =>
          expect(page.queryClient.getQueryData(['fundraiser', 'f-1', { viewer: 'stranger-1' }])).toMatchObject({
            owned: false,
          }),
        );
        expect(api.to('GET', '/api/fundraisers/f-1').map((request) => request.headers.authorization)).toContain(
          'Bearer token-stranger-1',
        );
      }
      expect(screen.queryByRole('region', { name: 'Impact Stats' })).toBeNull();
      expect(api.to('GET', '/api/fundraisers/f-1/stats')).toHaveLength(0);
      page.unmount();
      resetAuthState();
      updateAuthState({ status: 'ready' });
    }
  });

  it('shows the owner their figures once they sign in on the page a visitor saw, and hides them at sign-out', async () => {
    const api = routes();
    const { queryClient } = renderQrPage();
    // Answers are kept as the app keeps them (30 s), the visitor's too.
    queryClient.setDefaultOptions(createQueryClient().getDefaultOptions());
    expect(await screen.findByText('About This Cause')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Impact Stats' })).toBeNull();

    // The fundraiser the page read for a visitor says it is not theirs: the owner's own answer counts.
    act(() => {
      signInAs({ uid: 'owner-1', displayName: 'Olive' });
    });
    expect((await screen.findByTestId('total-scans')).textContent).toBe('12');
    expect(api.to('GET', '/api/fundraisers/f-1').at(-1)!.headers.authorization).toBe('Bearer token-owner-1');

    act(() => {
      updateAuthState({ session: null });
    });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Impact Stats' })).toBeNull());
  });

  it('shows the owner the test money in place of Total Raised in demo mode, labelled, and never without it', async () => {
    const stats = { ...ownerStats, testDonations: 2, testAmountRaised: 45 };
    routes({ 'GET /api/fundraisers/f-1/stats': { json: stats } });
    signInAs({ uid: 'owner-1', displayName: 'Olive' });
    const live = renderQrPage();
    expect((await screen.findByTestId('total-raised')).textContent).toBe('$30.00');
    expect(screen.queryByTestId('demo-money-label')).toBeNull();
    live.unmount();

    document.head.insertAdjacentHTML('beforeend', '<meta name="qrshirt-demo-mode" content="true">');
    try {
      renderQrPage();
      expect((await screen.findByTestId('total-raised')).textContent).toBe('$45.00');
      const card = screen.getByRole('region', { name: 'Impact Stats' });
      expect(within(card).getByTestId('demo-money-label').textContent).toBe('Demo: no real money');
    } finally {
      document.querySelector('meta[name="qrshirt-demo-mode"]')?.remove();
    }
  });

  it('thanks the donor for 5 s, records the parsed amount and shows the owner it awaits confirmation', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = routes({
      'POST /api/fundraisers/f-1/donate': {
        status: 201,
        json: { id: 'd-1', fundraiserId: 'f-1', amount: 12.5, currency: 'USD', awaitingConfirmation: true },
      },
    });
    signInAs({ uid: 'owner-1', displayName: 'Olive' });
    renderQrPage();
    await screen.findByTestId('total-raised');

    widgetReports({ type: 'donation-completed', amount: '"12.50"' });
    expect(screen.getByTestId('donation-thanks').textContent).toContain('Your $12.50 gift to Ocean Friends');
    // At once, nothing awaited in between: the clock runs on with real time, which a busy machine
    // would let pass between the report and here.
    act(() => {
      vi.advanceTimersByTime(4900);
    });
    expect(screen.queryByTestId('donation-thanks')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(screen.queryByTestId('donation-thanks')).toBeNull();

    // Reported, it awaits the processor's confirmation beside Total Raised, which it does not move.
    await waitFor(() =>
      expect(screen.getByTestId('awaiting-confirmation').textContent).toBe('+ $12.50 awaiting confirmation'),
    );
    expect(screen.getByTestId('total-raised').textContent).toBe('$30.00');
    const donation = api.to('POST', '/api/fundraisers/f-1/donate')[0]!;
    expect(donation.body).toEqual({ amount: 12.5 });
    expect(donation.headers['idempotency-key']).toBeTruthy();

    await waitFor(() => expect(api.to('POST', '/api/analytics')).toHaveLength(1));
    expect(api.to('POST', '/api/analytics')[0]!.body).toEqual({
      events: [{ type: 'donation', fundraiser_id: 'f-1', amount: 12.5, currency: 'USD' }],
    });
  });

  it('counts a donation once when a live update brings it before the recording answers', async () => {
    const answer = deferred<Awaited<FakeAnswer>>();
    routes({ 'POST /api/fundraisers/f-1/donate': () => answer.promise });
    signInAs({ uid: 'owner-1', displayName: 'Olive' });
    const { queryClient } = renderQrPage();
    await screen.findByTestId('total-raised');

    widgetReports({ type: 'donation-completed', amount: 12.5 });
    // The processor confirmed it and the live figures arrived before the report's answer.
    act(() => {
      queryClient.setQueryData(['fundraiser-stats', 'f-1'], { ...ownerStats, donations: 3, amountRaised: 42.5 });
    });
    const live: unknown = queryClient.getQueryData(['fundraiser-stats', 'f-1']);
    answer.resolve({
      status: 201,
      json: { id: 'd-1', fundraiserId: 'f-1', amount: 12.5, currency: 'USD', awaitingConfirmation: true },
    });
    await recordingAnswered(queryClient);
    // The figures it found are the live ones, left as they were: the same object, not a copy.
    expect(queryClient.getQueryData(['fundraiser-stats', 'f-1'])).toBe(live);
    expect(screen.getByTestId('total-raised').textContent).toBe('$42.50');
    expect(screen.queryByTestId('awaiting-confirmation')).toBeNull();
  });

  it("adds nothing awaiting when the processor's confirmation got there before the widget's report", async () => {
    // The figures shown already count the confirmed donation; nothing changes when it is reported.
    const confirmed = { ...ownerStats, donations: 3, amountRaised: 42.5 };
    routes({
      'GET /api/fundraisers/f-1/stats': { json: confirmed },
      'POST /api/fundraisers/f-1/donate': {
        status: 201,
        json: { id: 'd-1', fundraiserId: 'f-1', amount: 12.5, currency: 'USD', awaitingConfirmation: false },
      },
    });
    signInAs({ uid: 'owner-1', displayName: 'Olive' });
    const { queryClient } = renderQrPage();
    expect((await screen.findByTestId('total-raised')).textContent).toBe('$42.50');
    const shown: unknown = queryClient.getQueryData(['fundraiser-stats', 'f-1']);

    widgetReports({ type: 'donation-completed', amount: 12.5 });
    await recordingAnswered(queryClient);
    expect(queryClient.getQueryData(['fundraiser-stats', 'f-1'])).toBe(shown);
    expect(screen.queryByTestId('awaiting-confirmation')).toBeNull();
  });

  it("reports a donation under the widget's own name for it, which the processor's webhook names too", async () => {
    const api = routes({
      'POST /api/fundraisers/f-1/donate': {
        status: 201,
        json: { id: 'r-1', fundraiserId: 'f-1', amount: 5, currency: 'USD', awaitingConfirmation: true },
      },
    });
    renderQrPage();
    await screen.findByText('About This Cause');
    widgetReports({ type: 'donation-completed', amount: 5, donationId: 'checkout-1' });
    await waitFor(() => expect(api.to('POST', '/api/fundraisers/f-1/donate')).toHaveLength(1));
    expect(api.to('POST', '/api/fundraisers/f-1/donate')[0]!.headers['idempotency-key']).toBe('checkout-1');
  });

  it('shows what awaits confirmation smaller beside the confirmed Total Raised', async () => {
    routes({ 'GET /api/fundraisers/f-1/stats': { json: { ...ownerStats, amountReported: 1000 } } });
    signInAs({ uid: 'owner-1', displayName: 'Olive' });
    renderQrPage();
    expect((await screen.findByTestId('total-raised')).textContent).toBe('$30.00');
    expect(screen.getByTestId('awaiting-confirmation').textContent).toBe('+ $1,000.00 awaiting confirmation');
  });

  it('ignores messages from another origin and amounts that are not above 0', async () => {
    const api = routes();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderQrPage();
    await screen.findByText('About This Cause');

    widgetReports({ type: 'donation-completed', amount: 10 }, 'https://evil.example');
    widgetReports({ type: 'donation-completed', amount: 'abc' });
    widgetReports({ type: 'donation-completed', amount: -5 });

    expect(screen.queryByTestId('donation-thanks')).toBeNull();
    expect(api.to('POST', '/api/fundraisers/f-1/donate')).toHaveLength(0);
    // Only the widget's own warnings: an analytics batch that could not be sent warns too, when
    // the machine is slow enough for its flush to fall inside this test.
    const ignored = warn.mock.calls.filter(([message]) => String(message).startsWith('Ignored a donation message'));
    expect(ignored).toHaveLength(2);
    warn.mockRestore();
  });

  it('says when the fundraiser does not exist, and Try Again loads the same address again', async () => {
    routes({ 'GET /api/fundraisers/f-1': { status: 404, json: { error: 'Fundraiser not found' } } });
    const { user } = renderQrPage('/fundraiser/f-1?from=sticker&from=shirt');
    expect(await screen.findByText('Fundraiser not found')).toBeTruthy();
    expect(await tapTryAgain(user)).toBe('/fundraiser/f-1?from=sticker&from=shirt');
  });

  it('says the data failed to load on any other failure', async () => {
    routes({ 'GET /api/charity/ocean': { status: 500, json: { error: 'down' } } });
    renderQrPage();
    expect(await screen.findByText('Failed to load data')).toBeTruthy();
  });
});
