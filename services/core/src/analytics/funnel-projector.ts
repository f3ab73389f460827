import { confirmedChange, confirmedMoneyEvents, scanChange, scanFigureEvents } from '@qrshirt/contracts';
import { dayOf } from '../kit/hash-fields';
import type { Projector } from '../kit/projector';
import type { ReadModelOp } from '../ports/read-model-store';

/** Every shirt together, in the per-day hashes. */
export const ALL_SHIRTS = '*';

export const funnelKeys = {
  /** fields `<shirtId>|<step>` and `*|<step>`: the steps that name their shirt, and every step's total */
  day: (day: string) => `day:${day}`,
  /** fields `<fundraiserId>|<step>`: the steps that name only their fundraiser (scans, donations, claims) */
  fundraiserDay: (day: string) => `fundraiser-day:${day}`,
  /** fundraiser id -> its shirt id, to put those steps on their shirt when asked */
  shirtOf: 'shirt-of',
};

export type FunnelStep =
  'pageViews' | 'shirtClicks' | 'waitlistJoins' | 'fulfilled' | 'claimed' | 'scans' | 'donations' | 'amountCents';

/** A shirt page's address (`/shirt/<id>`, see the web client's paths) names its shirt. */
const SHIRT_PAGE = /^\/shirt\/([^/?#]+)/;

function shirtOfPage(path: string): string | null {
  const match = SHIRT_PAGE.exec(path);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
}

const bump = (key: string, field: string, by = 1): ReadModelOp => ({ op: 'hincrby', key, field, by });

/** A step of a shirt on a day, and in the day's total; `by` a sampled event's weight. */
function shirtStep(at: string, shirtId: string | null, step: FunnelStep, by = 1): ReadModelOp[] {
  const key = funnelKeys.day(dayOf(at));
  const ops = [bump(key, `${ALL_SHIRTS}|${step}`, by)];
  if (shirtId !== null) ops.push(bump(key, `${shirtId}|${step}`, by));
  return ops;
}

/** A step of a fundraiser on a day, and in the day's total: its shirt is looked up when asked. */
function fundraiserStep(at: string, fundraiserId: string, step: FunnelStep, by = 1): ReadModelOp[] {
  const day = dayOf(at);
  return [
    bump(funnelKeys.day(day), `${ALL_SHIRTS}|${step}`, by),
    bump(funnelKeys.fundraiserDay(day), `${fundraiserId}|${step}`, by),
  ];
}

/**
 * The admin funnel, per UTC day and per shirt: page views, shirt clicks, waitlist joins, entries
 * fulfilled and shirts claimed; then counted scans and confirmed donations. A projector never
 * reads, so steps that name only a fundraiser are kept per fundraiser and put on their shirt by
 * the query, through the fundraiser's shirt that this projection remembers.
 */
export const funnelProjector: Projector = {
  name: 'funnel',
  eventTypes: [
    'PageViewed',
    'ShirtClicked',
    'WaitlistJoined',
    'WaitlistEntryFulfilled',
    'FundraiserCreated',
    'FundraiserClaimed',
    ...scanFigureEvents,
    ...confirmedMoneyEvents,
  ],
  project(event) {
    const confirmed = confirmedChange(event);
    if (confirmed) {
      // The funnel ends in money raised: test money is no step of it.
      if (!confirmed.live) return [];
      const { at, fundraiserId, donations, amountCents } = confirmed;
      return [
        ...fundraiserStep(at, fundraiserId, 'donations', donations),
        ...fundraiserStep(at, fundraiserId, 'amountCents', amountCents),
      ];
    }
    const scans = scanChange(event);
    if (scans) return scans.counted > 0 ? fundraiserStep(scans.at, scans.fundraiserId, 'scans', scans.counted) : [];
    switch (event.type) {
      case 'PageViewed':
        return shirtStep(event.data.at, shirtOfPage(event.data.path), 'pageViews', event.data.weight);
      case 'ShirtClicked':
        return shirtStep(event.data.at, event.data.shirt_id, 'shirtClicks', event.data.weight);
      case 'WaitlistJoined':
        return shirtStep(event.data.at, event.data.shirtId, 'waitlistJoins');
      case 'FundraiserCreated':
        return [{ op: 'hset', key: funnelKeys.shirtOf, field: event.data.fundraiserId, value: event.data.shirtId }];
      case 'WaitlistEntryFulfilled':
        return shirtStep(event.data.at, event.data.shirtId, 'fulfilled');
      case 'FundraiserClaimed':
        return fundraiserStep(event.data.at, event.data.fundraiserId, 'claimed');
      default:
        return [];
    }
  },
};
