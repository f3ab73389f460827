/**
 * The SQLite event store against plain better-sqlite3 inserting and selecting the same columns
 * with the same pragmas but no constraint at all (the ceiling for any store built on it): 500
 * appends of 100 events, one transaction each, then every event read back by global position.
 * Also the rate at which the in-process read models replay the log, as at every embedded start.
 *
 *   npx tsx scripts/bench/event-store.ts [--synchronous NORMAL] [--rounds 5]
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { allProjectors, createMemoryReadModelStore, createProjectionRunner } from '@qrshirt/projections';
import type { SqliteSynchronous } from '@qrshirt/sqlite';
import type { EventStore } from '@qrshirt/core';
import { createSqliteEventStore } from '@qrshirt/sqlite';
import { runDirectly } from './cli';

const STREAMS = 500;
const EVENTS_PER_APPEND = 100;
const EVENTS = STREAMS * EVENTS_PER_APPEND;
const READ_PAGE_SIZE = 1_000;
const READ_PASSES = 5;
const EVENT_TYPE = 'ScanRecorded';

export interface EventStoreBenchFigures {
  synchronous: SqliteSynchronous;
  events: number;
  rounds: number;
  /** Medians over the rounds, in events per second. */
  adapter: {
    appendsPerSecond: number;
    readsPerSecond: number;
    concurrentAppendsPerSecond: number;
    /** Every projector replaying the whole log into in-process read models. */
    replayEventsPerSecond: number;
  };
  ceiling: { appendsPerSecond: number; readsPerSecond: number };
  ratio: { append: number; read: number };
}

interface Payload {
  scanId: string;
  fundraiserId: string;
  at: string;
}

export async function benchEventStore(
  options: { synchronous?: SqliteSynchronous; rounds?: number } = {},
): Promise<EventStoreBenchFigures> {
  const synchronous = options.synchronous ?? 'FULL';
  const rounds = options.rounds ?? 3;
  const data = payloads();
  const adapter = {
    appends: [] as number[],
    reads: [] as number[],
    concurrentAppends: [] as number[],
    replays: [] as number[],
  };
  const ceiling = { appends: [] as number[], reads: [] as number[] };

  for (let round = 0; round < rounds; round++) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-event-store-'));
    const store = createSqliteEventStore({ path: join(dir, 'adapter.db'), synchronous });
    const db = openUnconstrained(join(dir, 'ceiling.db'), synchronous);
    try {
      // The store starts its writer thread at its first append (half a second from the sources,
      // which tsx compiles for it): a cost of each start, not of each append.
      const warmUp = await store.appendToStream('warm-up', [{ type: EVENT_TYPE, data: data[0]![0]! }]);
      const adapterAppend = (): Promise<number> =>
        perSecond(async () => {
          for (let s = 0; s < STREAMS; s++) {
            const events = data[s]!.map((payload) => ({ type: EVENT_TYPE, data: payload }));
            await store.appendToStream(`scans-${s}`, events, { expectedRevision: 'no_stream' });
          }
          return EVENTS;
        });
      const adapterRead = (): Promise<number> =>
        perSecond(async () => {
          let read = 0;
          let after = warmUp.lastGlobalPosition;
          for (;;) {
            const page = await store.readAll({ after, maxCount: READ_PAGE_SIZE });
            if (page.length === 0) return read;
            read += page.length;
            after = page[page.length - 1]!.globalPosition;
          }
        });
      const plainRead = (): Promise<number> => perSecond(() => readPlain(db));

      // Alternating which goes first spreads the machine's noise over both.
      if (round % 2 === 0) {
        adapter.appends.push(await adapterAppend());
        ceiling.appends.push(await perSecond(() => appendPlain(db, data)));
      } else {
        ceiling.appends.push(await perSecond(() => appendPlain(db, data)));
        adapter.appends.push(await adapterAppend());
      }
      // A full read takes a fraction of a second, short enough for a busy machine to halve it:
      // passes alternate between the two, and the best of each counts.
      let [adapterBest, plainBest] = [0, 0];
      for (let pass = 0; pass < READ_PASSES; pass++) {
        adapterBest = Math.max(adapterBest, await adapterRead());
        plainBest = Math.max(plainBest, await plainRead());
      }
      adapter.reads.push(adapterBest);
      ceiling.reads.push(plainBest);

      // Not compared with the ceiling: group commit puts these 500 calls in one transaction.
      adapter.concurrentAppends.push(
        await perSecond(async () => {
          await Promise.all(
            data.map((payloads, s) =>
              store.appendToStream(
                `concurrent-${s}`,
                payloads.map((payload) => ({ type: EVENT_TYPE, data: payload })),
                { expectedRevision: 'no_stream' },
              ),
            ),
          );
          return EVENTS;
        }),
      );
      adapter.replays.push(await replayRate(store));
    } finally {
      await store.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const figures: EventStoreBenchFigures = {
    synchronous,
    events: EVENTS,
    rounds,
    adapter: {
      appendsPerSecond: median(adapter.appends),
      readsPerSecond: median(adapter.reads),
      concurrentAppendsPerSecond: median(adapter.concurrentAppends),
      replayEventsPerSecond: median(adapter.replays),
    },
    ceiling: { appendsPerSecond: median(ceiling.appends), readsPerSecond: median(ceiling.reads) },
    ratio: { append: 0, read: 0 },
  };
  figures.ratio.append = round2(figures.adapter.appendsPerSecond / figures.ceiling.appendsPerSecond);
  figures.ratio.read = round2(figures.adapter.readsPerSecond / figures.ceiling.readsPerSecond);
  return figures;
}

export function formatEventStoreFigures(figures: EventStoreBenchFigures): string {
  const { adapter, ceiling, ratio } = figures;
  return [
    `Event store, SQLite synchronous=${figures.synchronous}, ${figures.events} events, median of ${figures.rounds} rounds`,
    '| operation | adapter ev/s | plain better-sqlite3, no constraints, ev/s | ratio | target |',
    '|---|---|---|---|---|',
    `| append, 100 events per call | ${adapter.appendsPerSecond} | ${ceiling.appendsPerSecond} | ${ratio.append.toFixed(2)} | >= 0.80 |`,
    `| read all by global position | ${adapter.readsPerSecond} | ${ceiling.readsPerSecond} | ${ratio.read.toFixed(2)} | >= 0.60 |`,
    `| append, 500 concurrent calls (group commit) | ${adapter.concurrentAppendsPerSecond} | | | |`,
    `| replay into in-process read models (all projectors) | ${adapter.replayEventsPerSecond} | | | |`,
  ].join('\n');
}

function payloads(): Payload[][] {
  return Array.from({ length: STREAMS }, (_, s) =>
    Array.from({ length: EVENTS_PER_APPEND }, (_, i) => ({
      scanId: `scan-${s}-${i}`,
      fundraiserId: `fundraiser-${s % 37}`,
      at: new Date(1_700_000_000_000 + i * 1000).toISOString(),
    })),
  );
}

/** What the adapter does per append, minus the adapter: one transaction of 100 prepared inserts. */
function appendPlain(db: Database.Database, data: Payload[][]): number {
  const insert = db.prepare(
    `INSERT INTO events (stream_name, stream_revision, event_id, type, data, metadata, recorded_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const appendStream = db.transaction((streamName: string, payloads: Payload[]) => {
    const recordedAt = Date.now();
    for (let i = 0; i < payloads.length; i++) {
      insert.run(streamName, i, randomUUID(), EVENT_TYPE, JSON.stringify(payloads[i]), '{}', recordedAt);
    }
  });
  for (let s = 0; s < STREAMS; s++) appendStream.immediate(`scans-${s}`, data[s]!);
  return EVENTS;
}

/**
 * Paged like the adapter's reader: one huge all() is slower here (garbage collection), so
 * paging is the best plain code does. The data is parsed, as any real reader must.
 */
function readPlain(db: Database.Database): number {
  const selectPage = db
    .prepare(
      `SELECT global_position, stream_name, stream_revision, event_id, type, data, metadata, recorded_at
       FROM events WHERE rowid > ? ORDER BY rowid LIMIT ?`,
    )
    .raw();
  let read = 0;
  let after = 0;
  for (;;) {
    const rows = selectPage.all(after, READ_PAGE_SIZE) as unknown[][];
    if (rows.length === 0) return read;
    for (const row of rows) {
      const payload = JSON.parse(row[5] as string) as Payload;
      if (payload.scanId) read++;
    }
    after = rows[rows.length - 1]![0] as number;
  }
}

/** Events per second for every projector to catch up from position 0 into fresh in-process models. */
async function replayRate(store: EventStore): Promise<number> {
  const readModels = createMemoryReadModelStore();
  const log = { warn() {}, error() {} };
  const runners = allProjectors.map((projector) =>
    createProjectionRunner({ eventStore: store, store: readModels, projector, log }),
  );
  const total = await store.headPosition();
  const startedAt = process.hrtime.bigint();
  for (const runner of runners) runner.start();
  await Promise.all(runners.map((runner) => runner.waitUntilCaughtUp(120_000)));
  const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
  await Promise.all(runners.map((runner) => runner.stop()));
  return Math.round(total / seconds);
}

function openUnconstrained(path: string, synchronous: SqliteSynchronous): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.exec(`
    CREATE TABLE events (
      global_position INTEGER PRIMARY KEY, stream_name TEXT NOT NULL, stream_revision INTEGER NOT NULL,
      event_id TEXT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL,
      recorded_at INTEGER NOT NULL
    )`);
  return db;
}

/** Runs `work` (which returns how many events it handled) and answers events per second. */
async function perSecond(work: () => number | Promise<number>): Promise<number> {
  const startedAt = process.hrtime.bigint();
  const count = await work();
  if (count !== EVENTS) throw new Error(`handled ${count} events, expected ${EVENTS}`);
  return Math.round(count / (Number(process.hrtime.bigint() - startedAt) / 1e9));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

if (runDirectly(import.meta.url)) {
  const { values } = parseArgs({
    options: { synchronous: { type: 'string', default: 'FULL' }, rounds: { type: 'string', default: '3' } },
  });
  const synchronous = values.synchronous.toUpperCase();
  if (synchronous !== 'FULL' && synchronous !== 'NORMAL') throw new Error('--synchronous must be FULL or NORMAL');
  console.log(formatEventStoreFigures(await benchEventStore({ synchronous, rounds: Number(values.rounds) })));
}
