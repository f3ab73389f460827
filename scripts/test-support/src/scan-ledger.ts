import { performance } from 'node:perf_hooks';
import { scaled } from './deadlines';
import { eventually } from './eventually';
import type { ScanAnswer } from './scan-load';

export interface RecordedScan {
  scanId: string;
  fundraiserId: string;
}

/** What one fundraiser's owner and the operator would compare after the pipeline drained. */
export interface FundraiserTally {
  fundraiserId: string;
  /** 202 answers. */
  accepted: number;
  /** ScanRecorded events in the event store. */
  recorded: number;
  /** `scanRequests` in GET /api/fundraisers/{id}/stats: every request projected, counted or not. */
  projected: number;
  /** Events whose scan id an earlier event already carries. */
  duplicates: number;
  /** 202 answers whose scan id no event carries. */
  missing: number;
}

/**
 * The part of an event store the ledger reads, as @qrshirt/core's EventStore has it: written out
 * here so that this package imports no domain or adapter, and the caller opens whichever store
 * the ingestors write.
 */
export interface EventLog {
  readAll(options: {
    after: number;
    eventTypes: string[];
  }): Promise<readonly { data: unknown; globalPosition: number }[]>;
}

export interface ScanLedger {
  /** The ScanRecorded events appended so far. */
  scans(): Promise<RecordedScan[]>;
}

/** Reads what the ingestors wrote, from `log` (a second connection to the store they share). */
export function scanLedger(log: EventLog): ScanLedger {
  const seen: RecordedScan[] = [];
  let after = 0;
  return {
    async scans() {
      // Positions are committed in order, so reading on from the last one misses nothing.
      const fresh = await log.readAll({ after, eventTypes: ['ScanRecorded'] });
      for (const event of fresh) seen.push(event.data as RecordedScan);
      after = fresh.at(-1)?.globalPosition ?? after;
      return seen;
    },
  };
}

/** Per fundraiser: 202 answers against events against projected stats. */
function tally(
  fundraiserIds: readonly string[],
  answers: readonly ScanAnswer[],
  scans: readonly RecordedScan[],
  projected: ReadonlyMap<string, number>,
): FundraiserTally[] {
  const recorded = new Map<string, Set<string>>(fundraiserIds.map((id) => [id, new Set()]));
  const rows = new Map<string, FundraiserTally>(
    fundraiserIds.map((fundraiserId) => [
      fundraiserId,
      {
        fundraiserId,
        accepted: 0,
        recorded: 0,
        projected: projected.get(fundraiserId) ?? 0,
        duplicates: 0,
        missing: 0,
      },
    ]),
  );
  const allIds = new Set<string>();
  for (const scan of scans) {
    const row = rows.get(scan.fundraiserId);
    if (!row) continue;
    row.recorded += 1;
    if (allIds.has(scan.scanId)) row.duplicates += 1;
    allIds.add(scan.scanId);
    recorded.get(scan.fundraiserId)!.add(scan.scanId);
  }
  for (const answer of answers) {
    if (answer.status !== 202) continue;
    const row = rows.get(answer.fundraiserId)!;
    row.accepted += 1;
    if (answer.scanId === undefined || !recorded.get(answer.fundraiserId)!.has(answer.scanId)) row.missing += 1;
  }
  return [...rows.values()];
}

export interface DrainOptions {
  ledger: ScanLedger;
  fundraiserIds: readonly string[];
  answers: readonly ScanAnswer[];
  /** The projected scan requests of a fundraiser (GET .../stats, `scanRequests`). */
  projectedScans: (fundraiserId: string) => Promise<number>;
  /**
   * Whether the pipeline has nothing left in flight that could still write a scan (in Kafka mode:
   * the ingestors' consumer lag is 0). Without it, only the tallies decide.
   */
  caughtUp?: () => Promise<boolean>;
  /** Give up after this long and return what is there, so the assertions can show it. */
  timeoutMs?: number;
}

export interface Drained {
  tallies: FundraiserTally[];
  settled: boolean;
  waitedMs: number;
}

/**
 * Waits until the pipeline has nothing left in flight: `caughtUp` says so, every acknowledged scan
 * is in the event store, and the projected stats equal the events. A pipeline that lost or doubled
 * scans never settles; the tallies returned at the deadline then say by how much. `caughtUp` is
 * asked before the store is read, so that whatever it found written is in the tallies.
 */
export async function drain(options: DrainOptions): Promise<Drained> {
  const { ledger, fundraiserIds, answers, projectedScans, caughtUp, timeoutMs = scaled(60_000) } = options;
  const started = performance.now();
  const read = async () => {
    const idle = caughtUp ? await caughtUp() : true;
    const scans = await ledger.scans();
    const projected = new Map<string, number>();
    for (const id of fundraiserIds) projected.set(id, await projectedScans(id));
    const tallies = tally(fundraiserIds, answers, scans, projected);
    return { idle, tallies };
  };
  const complete = ({ idle, tallies }: { idle: boolean; tallies: FundraiserTally[] }) =>
    idle && tallies.every((row) => row.missing === 0 && row.projected === row.recorded);
  const last = await eventually(read, complete, timeoutMs);
  return { tallies: last.tallies, settled: complete(last), waitedMs: performance.now() - started };
}
