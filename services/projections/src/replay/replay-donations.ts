import { type DomainEvent, type EventType, readEvent, scanFigureEvents } from '@qrshirt/contracts';
import type { EventStore } from '@qrshirt/core';
import { type ReplayGroupBy, type ReplayResult, createReplayTally } from './replay-tally';
import type { ReplayWindow } from './replay-window';

export interface ReplayProgress {
  /** Global position of the last event read. */
  position: number;
  /** The store's head when the replay started: where it stops. */
  head: number;
  eventsRead: number;
}

export interface ReplayOptions {
  eventStore: EventStore;
  groupBy: ReplayGroupBy;
  window?: ReplayWindow;
  /** Events per readAll call. */
  pageSize?: number;
  /** Called after every page. */
  onProgress?(this: void, progress: ReplayProgress): void;
}

/** What the replay reads: facts (confirmed money and its fees), and the catalogue for the names of the groups. */
const replayedTypes: readonly EventType[] = [
  'FundraiserCreated',
  'FundraiserCharityChanged',
  ...scanFigureEvents,
  'DonationRecorded',
  'DonationConfirmed',
  'DonationRefunded',
  'DonationRestored',
  'DonationFeeCharged',
  'CharityCreated',
  'CharityUpdated',
  'ShirtAdded',
  'ShirtUpdated',
];

/*
 * Measured on 1M events in SQLite: pages of 1,000 took about a tenth less CPU than pages of 5,000
 * (a page's events outlive fewer garbage collections), and smaller ones gained nothing more.
 */
const DEFAULT_PAGE_SIZE = 1_000;

/**
 * Scans, donations and amount raised per day, charity, shirt or fundraiser, computed from the
 * event log itself (never the read models), the same way the fundraisers projector counts them.
 * Reads up to the head the store had when the replay started, so appends made meanwhile do not
 * make two runs over the same log disagree.
 */
export async function replayDonations(options: ReplayOptions): Promise<ReplayResult> {
  const { eventStore, groupBy, window = {}, pageSize = DEFAULT_PAGE_SIZE, onProgress } = options;
  const tally = createReplayTally(groupBy, window);
  const { asOf } = window;
  const head = await eventStore.headPosition();
  let after = 0;
  let eventsRead = 0;
  let unreadable = 0;

  while (after < head) {
    const page = await eventStore.readAll({ after, maxCount: pageSize, eventTypes: replayedTypes });
    for (const stored of page) {
      if (stored.globalPosition > head) break;
      eventsRead++;
      if (asOf !== undefined && stored.recordedAt.getTime() > asOf) continue;
      let event: DomainEvent;
      try {
        event = readEvent(stored.type, stored.data, stored.metadata);
      } catch {
        // The projectors skip an event that does not read (or upcast) too: counting it here
        // would disagree with them.
        unreadable++;
        continue;
      }
      tally.add(event);
    }
    const last = page.at(-1);
    after = last === undefined || page.length < pageSize ? head : last.globalPosition;
    onProgress?.({ position: Math.min(after, head), head, eventsRead });
    // Every page read is synchronous work; yielding between pages keeps a server that runs a
    // replay answering its other requests.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { ...tally.result(), eventsRead, unreadable };
}
