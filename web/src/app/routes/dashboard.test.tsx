import type { PersonalDataExport, UserStats } from '@qrshirt/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureDownloads, textOf } from '@/testing/downloads';
import { fakeApi } from '@/testing/fake-api';
import { renderRoute } from '@/testing/render';
import { sessionFor, signInAs } from '@/testing/session';
import { getAuthState } from '@/lib/auth/session-store';
import { DashboardRoute } from './dashboard';

const stats: UserStats = {
  totalImpact: 125.5,
  totalReported: 20,
  testAmountRaised: 0,
  testDonations: 0,
  totalScans: 40,
  shirtsOwned: 3,
  fundraiserStats: [
    {
      id: 'f-1',
      name: 'Scan Me Maybe',
      charityId: 'water',
      goal: 200,
      purchaseDate: '2025-03-05T10:00:00.000Z',
      scans: 30,
      donationsInspired: 7,
      amountRaised: 100,
      amountReported: 0,
      testDonations: 0,
      testAmountRaised: 0,
    },
    {
      id: 'f-2',
      name: 'Plot Twist',
      charityId: 'water',
      goal: null,
      purchaseDate: '2025-04-01T10:00:00.000Z',
      scans: 10,
      donationsInspired: 1,
      amountRaised: 25.5,
      amountReported: 20,
      testDonations: 0,
      testAmountRaised: 0,
    },
    {
      id: 'f-3',
      name: 'Free WiFi',
      charityId: 'water',
      goal: null,
      purchaseDate: '2025-05-01T10:00:00.000Z',
      scans: 0,
      donationsInspired: 0,
      amountRaised: 0,
      amountReported: 0,
      testDonations: 0,
      testAmountRaised: 0,
    },
  ],
};

const daily = (date: string, scans: number, donations: number) => ({
  date,
  scans,
  donations,
  amountRaised: donations * 10,
});

function renderDashboard() {
  return renderRoute(<DashboardRoute />, { path: '/dashboard', at: '/dashboard' });
}

describe('the dashboard', () => {
  it('shows the four figures with the spec formulas', async () => {
    fakeApi({
      'GET /api/user/u-1/stats': { json: stats },
      'GET /api/fundraisers/f-1/stats': {
        json: { scans: 30, donations: 7, amountRaised: 100, amountReported: 0, daily: [daily('2025-06-01', 30, 7)] },
      },
      'GET /api/fundraisers/f-2/stats': {
        json: { scans: 10, donations: 1, amountRaised: 25.5, amountReported: 20, daily: [daily('2025-06-01', 10, 1)] },
      },
      'GET /api/fundraisers/f-3/stats': {
        json: { scans: 0, scanRequests: 0, donations: 0, amountRaised: 0, amountReported: 0, daily: [] },
      },
    });
    signInAs({ uid: 'u-1', displayName: 'Ada' });
    renderDashboard();

    expect(await screen.findByText('Welcome back, Ada!')).toBeTruthy();
    // Confirmed money; what the processor has not confirmed yet only beside it, smaller.
    expect(screen.getByTestId('stat-total-impact').textContent).toBe('$125.50');
    expect(
      within(screen.getByRole('region', { name: 'Total Impact' })).getByTestId('awaiting-confirmation').textContent,
    ).toBe('+ $20.00 awaiting confirmation');
    expect(screen.getByTestId('stat-qr-scans').textContent).toBe('40');
    expect(screen.getByTestId('stat-shirts-owned').textContent).toBe('3');
    // 125.5 / 3 = 41.83, rounded.
    expect(screen.getByTestId('stat-avg-per-shirt').textContent).toBe('$42.00');
  });

  it('lists each shirt with its figures, rate, QR page link and QR code downloads', async () => {
    fakeApi({ 'GET /api/user/u-1/stats': { json: stats } });
    signInAs({ uid: 'u-1', email: 'ada@example.com' });
    renderDashboard();

    const shirts = await screen.findAllByTestId('owned-shirt');
    expect(shirts).toHaveLength(3);
    const first = within(shirts[0]!);
    expect(first.getByText('Scan Me Maybe')).toBeTruthy();
    expect(first.getByText('Purchased Mar 5, 2025')).toBeTruthy();
    expect(first.getByText('$100.00')).toBeTruthy();
    // 7 donations over 30 scans = 23.3 %.
    expect(first.getByText('23%')).toBeTruthy();
    expect(first.getByRole('link', { name: 'View QR Page' }).getAttribute('href')).toBe('/fundraiser/f-1');
    expect(first.getByRole('img', { name: /QR code for Scan Me Maybe/ }).getAttribute('src')).toBe(
      '/api/fundraisers/f-1/qr.svg',
    );
    expect(first.getByRole('link', { name: 'Download PNG' }).getAttribute('href')).toBe(
      '/api/fundraisers/f-1/qr.png?download=1',
    );
    expect(first.getByRole('link', { name: 'Download SVG' }).getAttribute('download')).toBe('scan-me-maybe-qr.svg');
    // No scans yet: the rate is 0, not NaN.
    expect(within(shirts[2]!).getByText('0%')).toBeTruthy();
    // Awaiting confirmation beside the shirt's confirmed figure, and only where something awaits it.
    expect(first.queryByTestId('awaiting-confirmation')).toBeNull();
    expect(within(shirts[1]!).getByText('$25.50')).toBeTruthy();
    expect(within(shirts[1]!).getByTestId('awaiting-confirmation').textContent).toBe('+ $20.00 awaiting confirmation');
    expect(screen.getByText('Welcome back, ada@example.com!')).toBeTruthy();
  });

  it("shows each shirt's progress towards its goal, and only for shirts with a goal", async () => {
    fakeApi({ 'GET /api/user/u-1/stats': { json: stats } });
    signInAs({ uid: 'u-1', displayName: 'Ada' });
    renderDashboard();
    const shirts = await screen.findAllByTestId('owned-shirt');
    const bar = within(shirts[0]!).getByRole('progressbar', { name: 'Scan Me Maybe: progress towards the goal' });
    expect(bar.getAttribute('aria-valuenow')).toBe('50');
    expect(within(shirts[0]!).getByText('$100.00 raised of $200.00 goal')).toBeTruthy();
    expect(within(shirts[1]!).queryByTestId('goal-progress')).toBeNull();
  });

  it("lets the owner change a shirt's name, charity and goal, and removes the goal when emptied", async () => {
    const server = fakeApi({
      'GET /api/user/u-1/stats': { json: stats },
      'GET /api/charities': {
        json: [
          { id: 'water', name: 'Clean Water', mission: 'Water.', website_url: 'https://water.example' },
          { id: 'trees', name: 'Trees Again', mission: 'Trees.', website_url: 'https://trees.example' },
        ],
      },
      'PATCH /api/fundraisers/f-1': {
        json: {
          id: 'f-1',
          owned: true,
          charityId: 'trees',
          shirtId: 's-1',
          name: 'Run for trees',
          goal: null,
          amountRaised: 100,
        },
      },
    });
    signInAs({ uid: 'u-1', displayName: 'Ada' });
    const { user } = renderDashboard();
    await user.click(await screen.findByRole('button', { name: 'Edit Scan Me Maybe' }));
    const form = await screen.findByRole('form', { name: 'Edit shirt' });
    // A close button a screen reader can name.
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
    const name = within(form).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Run for trees');
    await user.click(within(form).getByRole('combobox', { name: 'Charity' }));
    await user.click(await screen.findByRole('option', { name: 'Trees Again' }));
    await user.clear(within(form).getByLabelText('Goal (USD)'));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.to('PATCH', '/api/fundraisers/f-1')).toHaveLength(1));
    expect(server.to('PATCH', '/api/fundraisers/f-1')[0]!.body).toEqual({
      name: 'Run for trees',
      charityId: 'trees',
      goal: null,
    });
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit shirt' })).toBeNull());
  });

  it('closes the account after confirming with the password, and says why when it is refused', async () => {
    const server = fakeApi({
      'GET /api/user/u-1/stats': { json: stats },
      'DELETE /api/user/u-1': (request) =>
        (request.body as { password?: string }).password === 'correct horse'
          ? { status: 204 }
          : { status: 401, json: { error: 'Incorrect password. Please try again.', code: 'wrong-password' } },
      'POST /api/auth/signout': { status: 204 },
    });
    signInAs({ uid: 'u-1', displayName: 'Ada' });
    const { user } = renderDashboard();
    await user.click(await screen.findByRole('button', { name: 'Close my account' }));
    const form = await screen.findByRole('form', { name: 'Close my account' });
    // Changing one's mind closes nothing.
    await user.click(within(form).getByRole('button', { name: 'Keep my account' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Close my account' })).toBeNull());
    expect(server.to('DELETE', '/api/user/u-1')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Close my account' }));
    const again = await screen.findByRole('form', { name: 'Close my account' });
    await user.type(within(again).getByLabelText(/Password/), 'wrong horse');
    await user.click(within(again).getByRole('button', { name: 'Close my account' }));
    expect(await within(again).findByText('Incorrect password. Please try again.')).toBeTruthy();

    await user.clear(within(again).getByLabelText(/Password/));
    await user.type(within(again).getByLabelText(/Password/), 'correct horse');
    await user.click(within(again).getByRole('button', { name: 'Close my account' }));
    await waitFor(() => expect(server.to('POST', '/api/auth/signout')).toHaveLength(1));
    expect(server.to('DELETE', '/api/user/u-1').map((request) => request.body)).toEqual([
      { password: 'wrong horse' },
      { password: 'correct horse' },
    ]);
    expect(await screen.findByText('Your account is closed.')).toBeTruthy();
  });

  it('saves the owner’s data as a JSON file named for the account', async () => {
    const data: PersonalDataExport = {
      exportedAt: '2025-06-02T10:00:00.000Z',
      profile: {
        uid: 'u-1',
        displayName: 'Ada',
        email: 'ada@example.com',
        emailVerified: true,
        photoURL: null,
        dailySummary: false,
        registeredAt: '2025-03-05T10:00:00.000Z',
        registeredWith: 'password',
        lastSignInAt: '2025-06-01T10:00:00.000Z',
      },
      signInMethods: [{ kind: 'password', email: 'ada@example.com' }],
      fundraisers: stats,
      waitlistEntries: [],
      donations: [],
      events: [{ stream: 'user-u-1', type: 'UserRegistered', recordedAt: '2025-03-05T10:00:00.000Z', data: {} }],
    };
    const saved = captureDownloads();
    const server = fakeApi({ 'GET /api/user/u-1/stats': { json: stats }, 'GET /api/user/u-1/export': { json: data } });
    signInAs({ uid: 'u-1', displayName: 'Ada' });
    const { user } = renderDashboard();

    await user.click(await screen.findByRole('button', { name: 'Download my data' }));
    await waitFor(() => expect(saved.name).toBe('qrshirts-data-u-1.json'));
    const [request] = server.to('GET', '/api/user/u-1/export');
    expect(request!.headers.authorization).toMatch(/^Bearer /);
    expect(JSON.parse(await textOf(saved.blob!))).toEqual(data);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says why the data could not be downloaded', async () => {
    fakeApi({
      'GET /api/user/u-1/stats': { json: stats },
      'GET /api/user/u-1/export': { status: 404, json: { error: 'User not found' } },
    });
    signInAs({ uid: 'u-1', displayName: 'Ada' });
    const { user } = renderDashboard();
    await user.click(await screen.findByRole('button', { name: 'Download my data' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your data could not be downloaded: User not found');
  });

  it('signs out everywhere, then goes on anonymously on the home page', async () => {
    const server = fakeApi({
      'GET /api/user/u-1/stats': { json: stats },
      'POST /api/auth/signout-everywhere': { status: 204 },
      'POST /api/auth/signout': { status: 204 },
      'POST /api/auth/anonymous': { json: sessionFor({ uid: 'anon-1', anonymous: true }) },
    });
    signInAs({ uid: 'u-1', displayName: 'Ada' });
    const { user } = renderDashboard();
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    expect(await screen.findByText('You are signed out on every device.')).toBeTruthy();
    await waitFor(() => expect(getAuthState().session?.user).toMatchObject({ uid: 'anon-1', anonymous: true }));
    const [request] = server.to('POST', '/api/auth/signout-everywhere');
    expect(request!.headers.authorization).toBe('Bearer token-u-1');
  });

  it('says why signing out everywhere failed, and stays signed in', async () => {
    fakeApi({
      'GET /api/user/u-1/stats': { json: stats },
      'POST /api/auth/signout-everywhere': { status: 503, json: { error: 'Service unavailable' } },
    });
    signInAs({ uid: 'u-1', displayName: 'Ada' });
    const { user } = renderDashboard();
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'You could not be signed out everywhere: Service unavailable',
    );
    expect(getAuthState().session?.user.uid).toBe('u-1');
  });

  it("shows why a shirt's change was refused", async () => {
    fakeApi({
      'GET /api/user/u-1/stats': { json: stats },
      'GET /api/charities': { json: [] },
      'PATCH /api/fundraisers/f-2': { status: 404, json: { error: 'Charity not found' } },
    });
    signInAs({ uid: 'u-1', displayName: 'Ada' });
    const { user } = renderDashboard();
    await user.click(await screen.findByRole('button', { name: 'Edit Plot Twist' }));
    const form = await screen.findByRole('form', { name: 'Edit shirt' });
    await user.type(within(form).getByLabelText('Goal (USD)'), '50');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('Charity not found');
  });

  it('invites a user without shirts to the shop', async () => {
    fakeApi({
      'GET /api/user/u-1/stats': {
        json: {
          totalImpact: 0,
          totalReported: 0,
          testAmountRaised: 0,
          testDonations: 0,
          totalScans: 0,
          shirtsOwned: 0,
          fundraiserStats: [],
        },
      },
    });
    signInAs({ uid: 'u-1', displayName: 'Ada' });
    renderDashboard();
    expect(await screen.findByText('No shirts yet')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse the shop' }).getAttribute('href')).toBe('/shop');
    expect(screen.getByTestId('stat-avg-per-shirt').textContent).toBe('$0.00');
  });

  it('lists the charities the member submitted, each approved one with the way to its Stripe payouts', async () => {
    const charity = { mission: 'Helps.', website_url: 'https://help.example.org' };
    const api = fakeApi({
      'GET /api/user/u-1/stats': { json: stats },
      'GET /api/user/u-1/charities': {
        json: {
          charities: [
            { ...charity, id: 'bats', name: 'Bat Rescue', status: 'pending' },
            { ...charity, id: 'bees', name: 'Bees Please', status: 'approved' },
            { ...charity, id: 'owls', name: 'Owl Watch', status: 'rejected', rejectionReason: 'No register.' },
          ],
        },
      },
    });
    signInAs({ uid: 'u-1', displayName: 'Ada' });
    renderDashboard();

    const list = await screen.findByRole('region', { name: 'Your Charities' });
    const row = (name: string) => within(list).getByRole('row', { name: new RegExp(`^${name}`) });
    expect(row('Bat Rescue').textContent).toContain('Awaiting review');
    expect(row('Owl Watch').textContent).toContain('Turned down');
    expect(row('Bees Please').textContent).toContain('Approved');
    expect(within(list).getAllByRole('link')).toHaveLength(1);
    expect(within(list).getByRole('link', { name: 'Stripe payouts of Bees Please' }).getAttribute('href')).toBe(
      '/charity/bees/payouts',
    );
    expect(api.to('GET', '/api/user/u-1/charities')).toHaveLength(1);
  });

  it('shows no list of charities to a member who submitted none', async () => {
    const api = fakeApi({
      'GET /api/user/u-1/stats': { json: stats },
      'GET /api/user/u-1/charities': { json: { charities: [] } },
    });
    signInAs({ uid: 'u-1', displayName: 'Ada' });
    renderDashboard();

    expect(await screen.findByText('Welcome back, Ada!')).toBeTruthy();
    await waitFor(() => expect(api.to('GET', '/api/user/u-1/charities')).toHaveLength(1));
    expect(screen.queryByRole('region', { name: 'Your Charities' })).toBeNull();
    expect(screen.queryByText('Stripe payouts')).toBeNull();
  });

  it('offers to try again when the figures cannot be loaded, and then shows them', async () => {
    let calls = 0;
    fakeApi({
      'GET /api/user/u-1/stats': () => (++calls === 1 ? { status: 500, json: { error: 'down' } } : { json: stats }),
    });
    signInAs({ uid: 'u-1', displayName: 'Ada' });
    const { user } = renderDashboard();
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
    expect(screen.getByText('Failed to load user stats')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('Welcome back, Ada!')).toBeTruthy();
  });

  it('asks an unverified user to verify their address, and mails a new link on request', async () => {
    const server = fakeApi({
      'GET /api/user/u-1/stats': { json: stats },
      'GET /api/me': { json: { uid: 'u-1', anonymous: false, admin: false, emailVerified: false } },
      'POST /api/auth/verify-email/resend': { status: 202 },
    });
    signInAs({ uid: 'u-1', displayName: 'Ada', email: 'ada@example.com' });
    const { user } = renderDashboard();
    const banner = await screen.findByTestId('verify-email-banner');
    expect(within(banner).getByText('Please verify your email address')).toBeTruthy();
    expect(within(banner).getByText(/We sent a link to ada@example.com/)).toBeTruthy();
    await user.click(within(banner).getByRole('button', { name: 'Resend link' }));
    expect(await screen.findByText('A new link is on its way')).toBeTruthy();
    expect(server.to('POST', '/api/auth/verify-email/resend')).toHaveLength(1);
  });

  it('shows why a new link was refused', async () => {
    fakeApi({
      'GET /api/user/u-1/stats': { json: stats },
      'GET /api/me': { json: { uid: 'u-1', anonymous: false, admin: false, emailVerified: false } },
      'POST /api/auth/verify-email/resend': {
        status: 429,
        json: { error: 'Too many failed attempts. Please try again later.', code: 'too-many-requests' },
      },
    });
    signInAs({ uid: 'u-1', displayName: 'Ada' });
    const { user } = renderDashboard();
    await user.click(await screen.findByRole('button', { name: 'Resend link' }));
    expect(await screen.findByText('Too many failed attempts. Please try again later.')).toBeTruthy();
  });

  it('shows no banner to a verified user', async () => {
    const server = fakeApi({
      'GET /api/user/u-1/stats': { json: stats },
      'GET /api/me': { json: { uid: 'u-1', anonymous: false, admin: false, emailVerified: true } },
    });
    signInAs({ uid: 'u-1', displayName: 'Ada' });
    renderDashboard();
    expect(await screen.findByText('Welcome back, Ada!')).toBeTruthy();
    await waitFor(() => expect(server.to('GET', '/api/me')).toHaveLength(1));
    expect(screen.queryByTestId('verify-email-banner')).toBeNull();
  });

  it('asks a signed-out visitor to sign in', () => {
    fakeApi({});
    renderDashboard();
    expect(screen.getByText('Please sign in to view your dashboard')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/signin');
  });
});

describe('changing the address in Edit Profile', () => {
  it('offers a field for the new address, which sends the link there', async () => {
    const server = fakeApi({
      'GET /api/user/u-1/stats': { json: stats },
      'GET /api/user/u-1': {
        json: { uid: 'u-1', displayName: 'Ada', email: 'ada@example.com', photoURL: null, dailySummary: false },
      },
      'POST /api/user/u-1/email': { status: 202 },
    });
    signInAs({ uid: 'u-1', displayName: 'Ada', email: 'ada@example.com' });
    const { user } = renderDashboard();
    await user.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    const form = await screen.findByRole('form', { name: 'Change email' });
    expect(within(form).getByText(/Your email address is ada@example\.com\./)).toBeTruthy();
    await user.type(within(form).getByLabelText('New email address'), 'countess@example.com');
    await user.click(within(form).getByRole('button', { name: 'Send link' }));
    expect(await within(form).findByText(/Your address changes once you open it/)).toBeTruthy();
    expect(server.to('POST', '/api/user/u-1/email').map((request) => request.body)).toEqual([
      { email: 'countess@example.com' },
    ]);
  });
});

describe('the daily summary switch in Edit Profile', () => {
  const profile = { uid: 'u-1', displayName: 'Ada', email: 'ada@example.com', photoURL: null };

  it('shows the stored choice and saves a flip at once', async () => {
    const server = fakeApi({
      'GET /api/user/u-1/stats': { json: stats },
      'GET /api/user/u-1': { json: { ...profile, dailySummary: false } },
      'PATCH /api/user/u-1': { json: { ...profile, dailySummary: true } },
    });
    signInAs({ uid: 'u-1', displayName: 'Ada' });
    const { user } = renderDashboard();
    await user.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    const toggle = await screen.findByRole('switch', {
      name: /^Email me a daily summary on days my shirts are scanned or raise money/,
    });
    await waitFor(() => expect((toggle as HTMLInputElement).disabled).toBe(false));
    expect((toggle as HTMLInputElement).checked).toBe(false);

    await user.click(toggle);
    await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(true));
    expect(server.to('PATCH', '/api/user/u-1').map((request) => request.body)).toEqual([{ dailySummary: true }]);
  });

  it('says why a flip was not saved', async () => {
    fakeApi({
      'GET /api/user/u-1/stats': { json: stats },
      'GET /api/user/u-1': { json: { ...profile, dailySummary: true } },
      'PATCH /api/user/u-1': { status: 503, json: { error: 'The event store is unavailable' } },
    });
    signInAs({ uid: 'u-1', displayName: 'Ada' });
    const { user } = renderDashboard();
    await user.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    const toggle = await screen.findByRole('switch', { name: /daily summary/ });
    await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(true));
    await user.click(toggle);
    expect(await screen.findByText('The event store is unavailable')).toBeTruthy();
    expect((toggle as HTMLInputElement).checked).toBe(true);
  });
});

describe('the dashboard in demo mode', () => {
  const withTestMoney: UserStats = {
    ...stats,
    testAmountRaised: 36,
    testDonations: 4,
    fundraiserStats: stats.fundraiserStats.map((shirt, index) =>
      index === 0 ? { ...shirt, testDonations: 3, testAmountRaised: 30 } : shirt,
    ),
  };

  beforeEach(() => {
    document.head.insertAdjacentHTML('beforeend', '<meta name="qrshirt-demo-mode" content="true">');
  });
  afterEach(() => {
    document.querySelector('meta[name="qrshirt-demo-mode"]')?.remove();
  });

  it('shows the test money in place of the money raised, labelled', async () => {
    fakeApi({ 'GET /api/user/u-1/stats': { json: withTestMoney } });
    signInAs({ uid: 'u-1', displayName: 'Ada' });
    renderDashboard();

    expect((await screen.findByTestId('stat-total-impact')).textContent).toBe('$36.00');
    expect(screen.getByTestId('demo-money-label').textContent).toBe('Demo: no real money');
    expect(screen.getByTestId('stat-avg-per-shirt').textContent).toBe('$12.00');
    const first = within(screen.getAllByTestId('owned-shirt')[0]!);
    expect(first.getByText('$30.00')).toBeTruthy();
    expect(first.queryByText('$100.00')).toBeNull();
    // 3 test donations over 30 scans.
    expect(first.getByText('10%')).toBeTruthy();
  });
});

describe('the dashboard with live money', () => {
  it('never shows test money, nor the demo label', async () => {
    fakeApi({ 'GET /api/user/u-1/stats': { json: { ...stats, testAmountRaised: 36, testDonations: 4 } } });
    signInAs({ uid: 'u-1', displayName: 'Ada' });
    renderDashboard();

    expect((await screen.findByTestId('stat-total-impact')).textContent).toBe('$125.50');
    expect(screen.queryByTestId('demo-money-label')).toBeNull();
    expect(screen.queryByText('Demo: no real money')).toBeNull();
  });
});
