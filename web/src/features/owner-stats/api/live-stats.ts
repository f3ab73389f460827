import { type FundraiserStats, fundraiserStats, type UserStats, userStats } from '@qrshirt/contracts';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { z } from 'zod';
import { callResponse } from '@/lib/api-client';
import { isApiError } from '@/lib/http';
import { fundraiserStatsQueryOptions } from './get-fundraiser-stats';
import { userStatsQueryOptions } from './get-user-stats';
import { readServerSentEvents } from './live-events';

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

/** Doubling waits up to 30 s, each shortened at random so many pages do not reconnect in step. */
function liveRetryDelay(attempt: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt) * (0.5 + Math.random() / 2);
}

/** 401 (signed out), 403 (not theirs), 404: asking again gets the same answer. */
function refusedForGood(error: unknown): boolean {
  return isApiError(error) && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

interface FollowLiveOptions<T> {
  /** A `/live` operation: its `event: stats` messages carry the same JSON as the matching `/stats` one. */
  stream: 'streamUserStats' | 'streamFundraiserStats';
  /** The user's or the fundraiser's. */
  id: string;
  schema: z.ZodType<T>;
  onStats: (stats: T) => void;
  /** Aborting it closes the stream and ends the following. */
  signal: AbortSignal;
  retryDelay?: (attempt: number) => number;
}

/**
 * Follows a live stream with fetch (so the token goes in the Authorization header, never in a
 * URL, as EventSource would need) until `signal` aborts. A dropped or ended stream is reopened
 * after a growing wait; a refusal (signed out, not the owner) or an answer that breaks the
 * contract ends it, and the page keeps the figures it fetched.
 */
export async function followLiveStats<T>({
  stream,
  id,
  schema,
  onStats,
  signal,
  retryDelay = liveRetryDelay,
}: FollowLiveOptions<T>): Promise<void> {
  let attempt = 0;
  while (!signal.aborted) {
    try {
      const response = await callResponse(stream, { params: { id }, signal, accept: 'text/event-stream' });
      for await (const message of readServerSentEvents(response.body!)) {
        if (message.event !== 'stats') continue;
        const stats = schema.safeParse(JSON.parse(message.data));
        if (!stats.success) {
          console.error(`live updates of ${stream} ${id} do not match the contract`, stats.error);
          return;
        }
        onStats(stats.data);
        attempt = 0;
      }
    } catch (error) {
      if (signal.aborted || refusedForGood(error)) return;
    }
    await pause(retryDelay(attempt++), signal);
  }
}

/** Figures a stats answer carries, to tell which fundraisers changed. */
const figuresOf = (item: UserStats['fundraiserStats'][number]) =>
  `${item.scans}/${item.donationsInspired}/${item.amountRaised}`;

/** New user figures; a fundraiser whose figures moved has its own (per-day) stats fetched again. */
function applyUserStats(queryClient: QueryClient, uid: string, stats: UserStats): void {
  const { queryKey } = userStatsQueryOptions(uid);
  const before = new Map(queryClient.getQueryData(queryKey)?.fundraiserStats.map((item) => [item.id, figuresOf(item)]));
  queryClient.setQueryData(queryKey, stats);
  for (const item of stats.fundraiserStats) {
    if (before.get(item.id) !== figuresOf(item))
      void queryClient.invalidateQueries({ queryKey: fundraiserStatsQueryOptions(item.id).queryKey });
  }
}

/** The owner's dashboard figures follow every scan and donation of theirs while it is open. */
export function useLiveUserStats(uid: string | undefined): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!uid) return;
    const stop = new AbortController();
    void followLiveStats({
      stream: 'streamUserStats',
      id: uid,
      schema: userStats,
      signal: stop.signal,
      onStats: (stats) => applyUserStats(queryClient, uid, stats),
    });
    return () => stop.abort();
  }, [uid, queryClient]);
}

/** The owner's Impact Stats on the QR page follow the fundraiser's scans and donations; nobody else follows them. */
export function useLiveFundraiserStats(fundraiserId: string | undefined, isOwner: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!fundraiserId || !isOwner) return;
    const stop = new AbortController();
    void followLiveStats<FundraiserStats>({
      stream: 'streamFundraiserStats',
      id: fundraiserId,
      schema: fundraiserStats,
      signal: stop.signal,
      onStats: (stats) => queryClient.setQueryData(fundraiserStatsQueryOptions(fundraiserId).queryKey, stats),
    });
    return () => stop.abort();
  }, [fundraiserId, isOwner, queryClient]);
}
