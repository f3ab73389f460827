import type { FundraiserStats, UserStats } from '@qrshirt/contracts';
import { fundraiserStats, userStats } from '@qrshirt/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { requestUrl } from '@/testing/fake-api';
import { signInAs } from '@/testing/session';
import { followLiveStats, useLiveUserStats } from './live-stats';

const stats = (totalScans: number): UserStats => ({
  totalImpact: 10,
  totalReported: 0,
  testAmountRaised: 0,
  testDonations: 0,
  totalScans,
  shirtsOwned: 1,
  fundraiserStats: [
    {
      id: 'f-1',
      name: 'Tee',
      charityId: 'water',
      goal: null,
      purchaseDate: '2025-03-05T10:00:00.000Z',
      scans: totalScans,
      donationsInspired: 1,
      amountRaised: 10,
      amountReported: 0,
      testDonations: 0,
      testAmountRaised: 0,
    },
  ],
});

/** A stream the test writes to, one server-sent event at a time; aborting the request breaks it, as in a browser. */
function liveAnswer() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
    },
  });
  return {
    respond: (signal: AbortSignal | undefined) => {
      signal?.addEventListener('abort', () =>
        controller.error(new DOMException('The request was aborted', 'AbortError')),
      );
      return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
    },
    send: (data: unknown) => controller.enqueue(encoder.encode(`event: stats\ndata: ${JSON.stringify(data)}\n\n`)),
    heartbeat: () => controller.enqueue(encoder.encode(': heartbeat\n\n')),
    end: () => controller.close(),
  };
}

/** fetch answering each request with the next of `answers`, recording what was asked. */
function stubFetch(answers: ((signal: AbortSignal | undefined) => Response)[]) {
  const calls: { url: string; headers: Headers; signal: AbortSignal | undefined }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({ url: requestUrl(input), headers: new Headers(init.headers), signal: init.signal ?? undefined });
    const answer = answers.shift();
    if (!answer) return new Promise<Response>(() => {});
    return answer(init.signal ?? undefined);
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

function renderLiveDashboard(uid: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: React.ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const view = renderHook(() => useLiveUserStats(uid), { wrapper });
  return { ...view, queryClient };
}

describe('live dashboard figures', () => {
  it('puts each pushed figure into the cached user stats, with the auth headers and no token in the URL', async () => {
    const live = liveAnswer();
    const calls = stubFetch([live.respond]);
    signInAs({ uid: 'u-1' });
    const { queryClient } = renderLiveDashboard('u-1');
    const cached = () => queryClient.getQueryData<UserStats>(['user-stats', 'u-1'])?.totalScans;

    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.url).toBe('/api/user/u-1/live');
    expect(calls[0]!.headers.get('Authorization')).toBe('Bearer token-u-1');
    live.send(stats(4));
    await waitFor(() => expect(cached()).toBe(4));
    live.heartbeat();
    live.send(stats(5));
    await waitFor(() => expect(cached()).toBe(5));
  });

  it('reopens a stream that ended, and closes it when the page goes away', async () => {
    const first = liveAnswer();
    const second = liveAnswer();
    const calls = stubFetch([first.respond, second.respond]);
    signInAs({ uid: 'u-1' });
    const stop = new AbortController();
    const seen: number[] = [];
    const following = followLiveStats({
      stream: 'streamUserStats',
      id: 'u-1',
      schema: userStats,
      signal: stop.signal,
      onStats: (next) => seen.push(next.totalScans),
      retryDelay: () => 10,
    });

    await waitFor(() => expect(calls).toHaveLength(1));
    first.send(stats(1));
    first.end();
    await waitFor(() => expect(calls).toHaveLength(2));
    second.send(stats(2));
    await waitFor(() => expect(seen).toEqual([1, 2]));

    stop.abort();
    await following;
    expect(calls[1]!.signal?.aborted).toBe(true);
    expect(calls).toHaveLength(2);
  });

  it('gives up when the server refuses (not the owner), keeping what the page shows', async () => {
    const calls = stubFetch([
      () =>
        new Response(JSON.stringify({ error: 'Only the owner' }), {
          status: 403,
          headers: { 'Content-Type': 'application/json' },
        }),
    ]);
    signInAs({ uid: 'u-1' });
    const seen: FundraiserStats[] = [];
    await followLiveStats({
      stream: 'streamFundraiserStats',
      id: 'f-9',
      schema: fundraiserStats,
      signal: new AbortController().signal,
      onStats: (next) => seen.push(next),
      retryDelay: () => 1,
    });
    expect(calls).toHaveLength(1);
    expect(seen).toEqual([]);
  });
});
