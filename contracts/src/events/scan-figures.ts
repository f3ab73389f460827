import type { DomainEvent, EventType } from './definitions';

/** Events that add scans: one request each, or a writer's tally past the log's cap. */
export const scanFigureEvents = ['ScanRecorded', 'ScansTallied'] as const satisfies readonly EventType[];

export interface ScanChange {
  fundraiserId: string;
  /** The instant whose day the scans belong to (a tally's scans are all on one UTC day). */
  at: string;
  /** Scan requests taken, counted or not. */
  requests: number;
  /** The ones that counted (scan-counting.ts in core decided). */
  counted: number;
}

/**
 * What an event adds to the scan figures, the same for every reader (the fundraisers', overview
 * and funnel projectors, the replay), as `confirmedChange` is for money; null for other events.
 */
export function scanChange(event: DomainEvent): ScanChange | null {
  switch (event.type) {
    case 'ScanRecorded': {
      const { fundraiserId, at, counted } = event.data;
      return { fundraiserId, at, requests: 1, counted: counted ? 1 : 0 };
    }
    case 'ScansTallied': {
      const { fundraiserId, at, requests, counted } = event.data;
      return { fundraiserId, at, requests, counted: counted.length };
    }
    default:
      return null;
  }
}
