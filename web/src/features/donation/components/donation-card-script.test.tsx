import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { DonationCard } from './donation-card';
import { startDonationCard } from './donation-card-script';
import { DonationThanksTemplate } from './donation-thanks';

const props = { fundraiserId: 'f-1', charityName: 'Ocean Friends' };

/** The card and the thank-you's template as the server renders them into the landing. */
function serverRenderedCard(): HTMLElement {
  document.body.innerHTML = renderToString(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <div data-testid="card">
          <DonationCard {...props} onRecorded={() => {}} />
        </div>
        <DonationThanksTemplate charityName={props.charityName} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return screen.getByTestId('card');
}

function widgetSays(data: unknown, origin = window.location.origin) {
  const frame = screen.getByTitle<HTMLIFrameElement>('Donation widget');
  fireEvent(window, new MessageEvent('message', { data, origin, source: frame.contentWindow }));
}

/** The gateway's analytics endpoint, which the card's donation events go to. */
const analytics = {
  'POST /api/analytics': ({ body }: { body: unknown }) => ({
    status: 202,
    json: { accepted: (body as { events: unknown[] }).events.length },
  }),
};

const recorded = { id: 'd-1', fundraiserId: 'f-1', amount: 12.5, currency: 'USD', awaitingConfirmation: true };

describe("the landing's donation card without React", () => {
  let stop = () => {};
  afterEach(() => {
    stop();
    vi.useRealTimers();
    document.body.innerHTML = '';
  });

  it('puts the widget in its frame and says what reaches the charity', () => {
    const card = serverRenderedCard();
    expect(card.querySelector('iframe')).toBeNull();
    stop = startDonationCard(card, props, { onReported: () => {}, onRecorded: () => {} });
    const frame = screen.getByTitle<HTMLIFrameElement>('Donation widget');
    expect(new URL(frame.src).searchParams.get('fundraiserId')).toBe('f-1');
    expect(frame.loading).toBe('lazy');
    expect(frame.style.height).toBe('380px');
    expect(card.querySelector('[data-donation-frame]')).toBeNull();
    expect(screen.getByTestId('donation-share').textContent).toBe(
      'Your donation goes to Ocean Friends through the processor below, less any processing fee it charges. Pick an amount below.',
    );
  });

  it('takes the height its widget says, bounded, and nobody else’s', () => {
    stop = startDonationCard(serverRenderedCard(), props, { onReported: () => {}, onRecorded: () => {} });
    const height = () => screen.getByTitle<HTMLIFrameElement>('Donation widget').style.height;
    widgetSays({ type: 'widget-height', height: 512.4 });
    expect(height()).toBe('513px');
    widgetSays({ type: 'widget-height', height: 900 }, 'https://evil.example');
    widgetSays({ type: 'widget-height', height: 'tall' });
    expect(height()).toBe('513px');
    widgetSays({ type: 'widget-height', height: 1e9 });
    expect(height()).toBe('2000px');
  });

  it('thanks the donor for 5 s from the last donation, and reports each once, by its id', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = fakeApi({ ...analytics, 'POST /api/fundraisers/f-1/donate': { status: 201, json: recorded } });
    const reported: string[] = [];
    const onRecorded = vi.fn();
    stop = startDonationCard(serverRenderedCard(), props, { onReported: (id) => reported.push(id), onRecorded });

    widgetSays({ type: 'donation-completed', amount: '"12.50"', donationId: 'w-1' });
    expect(screen.getByTestId('donation-thanks').textContent).toBe(
      'Thank you for your donation! 💚Your $12.50 gift to Ocean Friends makes a real difference.',
    );
    vi.advanceTimersByTime(3000);
    widgetSays({ type: 'donation-completed', amount: 5, donationId: 'w-2' });
    expect(screen.getAllByTestId('donation-thanks')).toHaveLength(1);
    expect(screen.getByTestId('donation-thanks').textContent).toContain('Your $5.00 gift');
    vi.advanceTimersByTime(4900);
    expect(screen.queryByTestId('donation-thanks')).not.toBeNull();
    vi.advanceTimersByTime(200);
    expect(screen.queryByTestId('donation-thanks')).toBeNull();

    await waitFor(() => expect(onRecorded).toHaveBeenCalledTimes(2));
    expect(reported).toEqual(['w-1', 'w-2']);
    expect(onRecorded).toHaveBeenCalledWith(recorded, 'w-1');
    const reports = api.requests.filter((request) => request.path === '/api/fundraisers/f-1/donate');
    expect(reports.map((request) => [request.body, request.headers['idempotency-key']])).toEqual([
      [{ amount: 12.5 }, 'w-1'],
      [{ amount: 5 }, 'w-2'],
    ]);
    const views = api.requests.filter((request) => request.path === '/api/analytics');
    expect(views.flatMap((request) => (request.body as { events: unknown[] }).events)).toEqual([
      { type: 'donation', fundraiser_id: 'f-1', amount: 12.5, currency: 'USD' },
      { type: 'donation', fundraiser_id: 'f-1', amount: 5, currency: 'USD' },
    ]);
  });

  it('sends a failed report again under the same key, 1 s and then 2 s later', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let tries = 0;
    const api = fakeApi({
      ...analytics,
      'POST /api/fundraisers/f-1/donate': () =>
        ++tries < 3 ? { status: 503, json: { error: 'Busy' } } : { status: 201, json: recorded },
    });
    const onRecorded = vi.fn();
    stop = startDonationCard(serverRenderedCard(), props, { onReported: () => {}, onRecorded });
    widgetSays({ type: 'donation-completed', amount: 12.5, donationId: 'w-1' });
    await vi.advanceTimersByTimeAsync(3100);
    await waitFor(() => expect(onRecorded).toHaveBeenCalledWith(recorded, 'w-1'));
    const keys = api.requests
      .filter((request) => request.path === '/api/fundraisers/f-1/donate')
      .map((request) => request.headers['idempotency-key']);
    expect(keys).toEqual(['w-1', 'w-1', 'w-1']);
  });

  it('ignores a donation message from another origin, or without a positive amount', () => {
    fakeApi(analytics);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const onReported = vi.fn();
    stop = startDonationCard(serverRenderedCard(), props, { onReported, onRecorded: () => {} });
    widgetSays({ type: 'donation-completed', amount: 10 }, 'https://evil.example');
    widgetSays({ type: 'donation-completed', amount: 'ten' });
    expect(onReported).not.toHaveBeenCalled();
    expect(screen.queryByTestId('donation-thanks')).toBeNull();
    expect(warn).toHaveBeenCalledOnce();
  });
});
