import { type EventData, eventMetadata, readEvent, type ScanRequest, UnknownEventError } from '@qrshirt/contracts';
import type { EventStore, NewEvent, StoredEvent } from '../kit/event-store';
import { dayOf } from '../kit/hash-fields';

/** A visitor's scans of one fundraiser count once per this long. */
export const VISITOR_WINDOW_MS = 30 * 60_000;
/** At most ADDRESS_LIMIT counted scans of one fundraiser per client address in this long. */
export const ADDRESS_WINDOW_MS = 60 * 60_000;
export const ADDRESS_LIMIT = 30;
/**
 * Scans reach their writer in Kafka's order, stamped by the clocks of several gateways: a scan
 * may carry a time a little before one written earlier. Rebuilds read this much further back,
 * and memory keeps this much longer, than the windows need.
 */
const SKEW_MS = 5 * 60_000;
const KEEP_MS = ADDRESS_WINDOW_MS + SKEW_MS;
/** Streams are read backwards in pages of this many events when a writer rebuilds its memory. */
const REBUILD_PAGE = 1_000;

/**
 * Decides whether a scan request counts, and remembers the counted ones.
 *
 * Where this runs is the point: exactly one writer per fundraiser at a time, the one that
 * appends that fundraiser's `ScanRecorded` events, decides and writes `counted` in the event.
 * Kafka keys scans by fundraiser id, so a fundraiser's scans all come through one partition,
 * whose stream `scans-p<n>` only the ingestor holding its claim can append to (exact expected
 * revisions fence every other); the embedded batcher is the one writer of `scans-p0`. That
 * writer's memory is a function of its stream (rebuilt from the stream's last hour whenever it
 * claims the stream, starts, or an append failed), and every append names the revision the
 * memory was built up to, so a decision always saw every earlier scan of its fundraiser, however
 * many gateways accepted them and whichever ingestor held the partition before. The gateways
 * cannot decide (they would need shared state and a round trip per scan), and the projectors
 * only add up what the event says, so a rebuilt read model counts the same scans.
 */
export interface ScanCounter {
  /** Whether this request counts; a counted one is remembered for the requests after it. */
  count(scan: ScanRequest): boolean;
  /** Remembers a decision already written (rebuilding from the stream). */
  replay(scan: EventData<'ScanRecorded'>): void;
}

export function createScanCounter(): ScanCounter {
  /** `<fundraiser>\0<hash>` -> times (epoch ms) of its counted scans in the last hour or so. */
  const visitors = new Map<string, number[]>();
  const addresses = new Map<string, number[]>();
  let latest = Number.NEGATIVE_INFINITY;
  let sweptAt = Number.NEGATIVE_INFINITY;

  /** Forgets what no window can reach any more, every few minutes of scan time. */
  function sweep(): void {
    if (latest - sweptAt < SKEW_MS) return;
    sweptAt = latest;
    const before = latest - KEEP_MS;
    for (const times of [visitors, addresses]) {
      for (const [key, list] of times) {
        const kept = list.filter((time) => time > before);
        if (kept.length === 0) times.delete(key);
        else if (kept.length !== list.length) times.set(key, kept);
      }
    }
  }

  function remember(map: Map<string, number[]>, key: string, time: number): void {
    const list = map.get(key);
    if (list) list.push(time);
    else map.set(key, [time]);
  }

  function record(fundraiserId: string, visitorHash: string, addressHash: string | null, time: number): void {
    remember(visitors, `${fundraiserId}\0${visitorHash}`, time);
    if (addressHash !== null) remember(addresses, `${fundraiserId}\0${addressHash}`, time);
    if (time > latest) latest = time;
    sweep();
  }

  return {
    count(scan) {
      if (scan.bot) return false;
      // From a gateway older than counting: no way to tell visitors apart, counted as it was then.
      if (scan.visitorHash === null) return true;
      const time = Date.parse(scan.at);
      const visits = visitors.get(`${scan.fundraiserId}\0${scan.visitorHash}`);
      // Either side: a late-stamped request is as much a repeat as a later one.
      if (visits?.some((visit) => Math.abs(visit - time) < VISITOR_WINDOW_MS)) return false;
      if (scan.addressHash !== null) {
        const fromAddress = addresses.get(`${scan.fundraiserId}\0${scan.addressHash}`);
        const inWindow = fromAddress?.filter((counted) => counted > time - ADDRESS_WINDOW_MS).length ?? 0;
        if (inWindow >= ADDRESS_LIMIT) return false;
      }
      record(scan.fundraiserId, scan.visitorHash, scan.addressHash, time);
      return true;
    },
    replay(scan) {
      if (scan.counted && scan.visitorHash !== null) {
        record(scan.fundraiserId, scan.visitorHash, scan.addressHash, Date.parse(scan.at));
      }
    },
  };
}

/** The event a writer appends: the request and its decision. */
export function scanRecorded(scan: ScanRequest, counted: boolean): NewEvent<'ScanRecorded', EventData<'ScanRecorded'>> {
  return { type: 'ScanRecorded', data: { ...scan, counted }, metadata: eventMetadata('ScanRecorded') };
}

/** A scan request and whether it counted, as its stream's writer decided. */
export interface ScanDecision {
  scan: ScanRequest;
  counted: boolean;
}

/**
 * The events of a batch of decided scans: the first `singly` (what the log's cap allows now, see
 * log-cap.ts) one `ScanRecorded` each, the rest one `ScansTallied` per fundraiser and UTC day,
 * after them. `last` is the index of the batch's last scan an event holds (the Kafka offset it
 * carries); the events are in the order of `last`.
 */
export function scanEvents(decisions: readonly ScanDecision[], singly: number): { event: NewEvent; last: number }[] {
  const events: { event: NewEvent; last: number }[] = decisions
    .slice(0, singly)
    .map(({ scan, counted }, index) => ({ event: scanRecorded(scan, counted), last: index }));
  const tallies = new Map<string, { data: EventData<'ScansTallied'>; last: number }>();
  for (let index = singly; index < decisions.length; index++) {
    const { scan, counted } = decisions[index]!;
    const key = `${scan.fundraiserId}\0${dayOf(scan.at)}`;
    let tally = tallies.get(key);
    if (!tally) {
      tally = {
        data: { fundraiserId: scan.fundraiserId, from: scan.at, at: scan.at, requests: 0, counted: [] },
        last: index,
      };
      tallies.set(key, tally);
    }
    const { data } = tally;
    data.requests += 1;
    tally.last = index;
    const time = Date.parse(scan.at);
    if (time < Date.parse(data.from)) data.from = scan.at;
    if (time > Date.parse(data.at)) data.at = scan.at;
    if (counted) data.counted.push({ at: scan.at, visitorHash: scan.visitorHash, addressHash: scan.addressHash });
  }
  for (const { data, last } of tallies.values()) {
    events.push({ event: { type: 'ScansTallied', data, metadata: eventMetadata('ScansTallied') }, last });
  }
  return events.sort((a, b) => a.last - b.last);
}

/**
 * The memory of a scan stream's writer, rebuilt from the stream up to `revision` (its last event
 * the writer will append after): the counted scans of the hour before its newest scan, read
 * backwards page by page. Only events up to `revision` are read: should another writer have
 * appended since, this memory is not that stream's, and the append that names `revision` fails
 * (the writer then rebuilds, or has lost its claim).
 */
export async function rebuildScanCounter(
  eventStore: EventStore,
  stream: string,
  revision: number,
): Promise<ScanCounter> {
  const counter = createScanCounter();
  const pages: StoredEvent[][] = [];
  let cutoff = Number.NEGATIVE_INFINITY;
  let newestKnown = false;
  for (let end = revision; end >= 0;) {
    const from = Math.max(0, end - REBUILD_PAGE + 1);
    const page = await eventStore.readStream(stream, { fromRevision: from, maxCount: end - from + 1 });
    pages.push(page);
    const times = page
      .filter((event) => event.type === 'ScanRecorded' || event.type === 'ScansTallied')
      .map((event) => scanTime(event))
      .filter(Number.isFinite);
    if (times.length > 0) {
      if (!newestKnown) {
        cutoff = Math.max(...times) - KEEP_MS;
        newestKnown = true;
      }
      if (Math.min(...times) < cutoff) break;
    }
    end = from - 1;
  }
  for (const page of pages.reverse()) {
    for (const event of page) {
      for (const scan of countedScans(event)) {
        if (Date.parse(scan.at) >= cutoff) counter.replay(scan);
      }
    }
  }
  return counter;
}

/**
 * The scans an event holds as a writer remembers them (a tally's counted ones), none if it cannot
 * be read: like the projectors, which skip such an event, counting goes on rather than refusing
 * every scan after it.
 */
function countedScans(event: StoredEvent): EventData<'ScanRecorded'>[] {
  if (event.type !== 'ScanRecorded' && event.type !== 'ScansTallied') return [];
  try {
    const read = readEvent(event.type, event.data, event.metadata);
    if (read.type === 'ScanRecorded') return [read.data];
    if (read.type !== 'ScansTallied') return [];
    const { fundraiserId, counted } = read.data;
    return counted.map((scan) => ({ ...scan, scanId: '', fundraiserId, bot: false, counted: true }));
  } catch (error) {
    if (error instanceof UnknownEventError) return [];
    throw error;
  }
}

/** The time a stored scan (a tally's latest) names, NaN if it names none. */
function scanTime(event: StoredEvent): number {
  const at = (event.data as { at?: unknown } | null)?.at;
  return typeof at === 'string' ? Date.parse(at) : Number.NaN;
}
