import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { SCANS_TOPIC } from '@qrshirt/kafka';
import { type EventStore, type StoredEvent } from '@qrshirt/core';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { countByStatus, countErrors, scaled, WaitTimeout, waitFor, type WorkerProcess } from '@qrshirt/test-support';
import { describeWithKafka } from '@qrshirt/test-support/vitest';
import { MEMBER_KEY } from '../src/partition-stream';
import { describeWithScanPipeline, eachAcceptedOnce, PARTITIONS, SESSION_TIMEOUT_MS } from './support/scan-pipeline';

const SCANS_PER_SECOND = 400;
/** Far more than the load sends in its ~30 seconds: stop() ends it. */
const MAX_SCANS = 100_000;
/** Well past the session timeout, so the group gives the paused member's partitions away. */
const PAUSE_MS = SESSION_TIMEOUT_MS + 4_000;

interface Membership {
  memberId: string;
  partitions: number[];
}

describeWithKafka('a paused ingestor (zombie) whose partitions moved', (kafka) => {
  describeWithScanPipeline(kafka, 'with Redis read models', (startPipeline) => {
    it(
      'appends nothing after another ingestor claimed its partitions, and no scan is lost or doubled',
      async () => {
        // Enough fundraisers that the zombie's three partitions carry scans (all twelve missing
        // them has a chance of one in 4096).
        const pipeline = await startPipeline(12);
        const { store } = pipeline;
        // At debug it says when an append leaves with the revision it holds (see the pause below).
        const zombie = await pipeline.startIngestor({ LOG_LEVEL: 'debug' });
        const load = pipeline.startLoad({ total: MAX_SCANS, ratePerSecond: SCANS_PER_SECOND });
        // At debug too: should it not take over in time, its log says whether it was appending at all.
        const survivor = await pipeline.startIngestor({ LOG_LEVEL: 'debug' });
        const shared = (await waitFor('the two ingestors to share the partitions', () => {
          const [zombieNow, survivorNow] = [membership(zombie), membership(survivor)];
          const split = zombieNow && survivorNow && [...zombieNow.partitions, ...survivorNow.partitions].sort();
          return split?.length === PARTITIONS && new Set(split).size === PARTITIONS ? zombieNow : undefined;
        }))!;
        await waitFor('the zombie to append scans to its partitions', async () => {
          const streams = await Promise.all(
            shared.partitions.map((partition) => store.readStream(`scans-p${partition}`)),
          );
          return streams.some((events) =>
            events.some((event) => writtenBy(event) === shared.memberId && event.type === 'ScanRecorded'),
          );
        });

        // Each join makes it claim its partitions anew, as their next batch comes, and a claim reads
        // the stream's head first: paused before that read, it would claim at the survivor's
        // revision once resumed. So the pause waits until each of its partitions that carries scans
        // (a fundraiser's scans all go to one partition: some may carry none) was claimed since its
        // last join.
        await waitFor(
          'the zombie to claim each of its partitions that carries scans since it last joined',
          async () => ({
            joinedAt: lastJoin(zombie)?.time as number,
            claims: await latestClaims(store, shared.partitions, (member) => member === shared.memberId),
          }),
          ({ joinedAt, claims }) => claims.every((claim) => claim !== undefined && claim.at >= joinedAt),
        );

        // Paused while one of its appends waits for the write lock, so it resumes straight into
        // that append, past every Kafka check: only the stream's revision can stop it then. Its
        // debug line, stamped after the lock was taken, says such an append is on its way. The
        // lock is let go (and taken again) well before SQLite's 5 s busy timeout would fail the
        // appends waiting on it.
        let headAtPause = 0;
        await waitFor('the zombie paused with an append waiting for the write lock', async () => {
          const releaseLock = holdWriteLock(pipeline.databaseFile);
          const lockedAt = Date.now();
          try {
            const appending = await waitFor(
              'an append of the zombie after the lock was taken',
              () =>
                zombie.logs.some(
                  (line) =>
                    line.msg === 'appending a batch' &&
                    // It consumes analytics.v1 too, whose partitions are not fenced by the scans'.
                    line.topic === SCANS_TOPIC &&
                    (line.messages as number) > 0 &&
                    (line.time as number) > lockedAt &&
                    shared.partitions.includes(line.partition as number),
                ),
              Boolean,
              { timeoutMs: 2_000 },
            ).catch((error: unknown) => {
              if (error instanceof WaitTimeout) return false;
              throw error;
            });
            if (!appending) return false;
            zombie.pause();
            headAtPause = await store.headPosition();
            return true;
          } finally {
            releaseLock();
          }
        });
        const paused = performance.now();
        await waitFor('the survivor to be given the partitions of the paused ingestor', () => {
          const now = membership(survivor);
          return now && shared.partitions.every((partition) => now.partitions.includes(partition));
        });
        // Given them, it claims each as its next batch comes: resumed before that, the zombie's
        // append would still be at the head, and nothing would have fenced it. Any member id but
        // the zombie's: on a busy machine the survivor may itself miss a heartbeat and rejoin
        // under a new one.
        await waitFor(
          'the survivor to claim the partitions of the paused ingestor that carry scans',
          () => latestClaims(store, shared.partitions, (member) => member !== shared.memberId),
          (claims) => claims.every((claim) => claim !== undefined && claim.position > headAtPause),
          // It may first have to rejoin, then append the backlog of its own partitions: on a busy
          // machine (one CI run beside a CPU hog) that took over 30 s.
          { timeoutMs: scaled(90_000) },
        ).catch((error: unknown) => {
          throw withLog(error, survivor);
        });
        await sleep(Math.max(0, PAUSE_MS - (performance.now() - paused)));
        zombie.resume();
        const rejoined = (await waitFor('the zombie to rejoin as a new member', () => {
          const now = membership(zombie);
          return now && now.memberId !== shared.memberId ? now : undefined;
        }))!;
        await sleep(4_000);
        await load.stop();

        const drained = await pipeline.drain(load.answers);
        const streams = await Promise.all(
          Array.from({ length: PARTITIONS }, (_, partition) => store.readStream(`scans-p${partition}`)),
        );
        const afterTakeover = streams.map((events) => zombieAppendsAfterTakeover(events, shared.memberId, headAtPause));
        const statuses = countByStatus(load.answers);
        const events = drained.tallies.reduce((sum, row) => sum + row.recorded, 0);
        const fenced = [zombie, survivor].map((ingestor) => fencedBatches(ingestor));
        console.log(
          `[zombie] answers ${JSON.stringify(statuses)} ${JSON.stringify(countErrors(load.answers))}; ` +
            `zombie ${shared.memberId} held partitions ${shared.partitions.join(',')}, rejoined as ${rejoined.memberId}; ` +
            `per partition (zombie's scans before the pause / taken over by / zombie's events after): ${afterTakeover
              .map(
                (row, p) =>
                  `p${p} ${row.zombieScansBeforePause}/${row.takeoverClaimedBy ?? 'nobody'}/${row.zombieEventsAfterTakeover}`,
              )
              .join(', ')}; ` +
            `batches fenced (zombie, survivor): ${fenced.join(', ')}; ` +
            `${events} ScanRecorded events; ${drained.settled ? 'drained' : 'NOT drained'} in ${Math.round(drained.waitedMs)} ms`,
        );

        // The test means something only if the zombie was writing a partition that then moved.
        const movedWhileWriting = shared.partitions.filter((partition) => {
          const row = afterTakeover[partition]!;
          return row.zombieScansBeforePause > 0 && row.takeoverClaimedBy !== undefined;
        });
        expect(movedWhileWriting.length).toBeGreaterThan(0);
        expect(afterTakeover.map((row) => row.zombieEventsAfterTakeover)).toEqual(afterTakeover.map(() => 0));
        // The append it resumed into was refused, and it left the batch to the new owner.
        expect(fenced[0]).toBeGreaterThan(0);

        expect(drained.tallies).toEqual(eachAcceptedOnce(drained.tallies));
        expect(drained.settled).toBe(true);
        expect(statuses).toEqual({ 202: load.answers.length });
      },
      scaled(240_000),
    );
  });
});

/**
 * Of the partitions that carry scans (a fundraiser's scans all go to one partition: some may carry
 * none), the latest claim of each by a member `by` picks: when it was made and where it stands in
 * the log.
 */
async function latestClaims(store: EventStore, partitions: readonly number[], by: (memberId: string) => boolean) {
  const streams = await Promise.all(partitions.map((partition) => store.readStream(`scans-p${partition}`)));
  return streams
    .filter((events) => events.some(({ type }) => type === 'ScanRecorded'))
    .map((events) => {
      const claim = events.findLast(
        ({ type, data }) => type === 'PartitionClaimed' && by((data as { memberId: string }).memberId),
      );
      return claim && { at: Date.parse((claim.data as { at: string }).at), position: claim.globalPosition };
    });
}

/** The wait's failure with the ingestor's latest log lines, which tell a slow machine from a stuck process. */
function withLog(error: unknown, ingestor: WorkerProcess): unknown {
  if (!(error instanceof WaitTimeout)) return error;
  const tail = ingestor.logs.slice(-40).map((line) => JSON.stringify(line));
  return new Error(`${error.message}\n${ingestor.name}'s latest log lines:\n${tail.join('\n')}`, { cause: error });
}

const lastJoin = (ingestor: WorkerProcess) =>
  ingestor.logs.findLast((line) => line.msg === 'joined the consumer group');

/** The member id and scans partitions of the process's latest group join, from its log. */
function membership(ingestor: WorkerProcess): Membership | undefined {
  const joined = lastJoin(ingestor);
  if (!joined) return undefined;
  const assignment = joined.assignment as Record<string, number[]>;
  return { memberId: joined.memberId as string, partitions: assignment[SCANS_TOPIC] ?? [] };
}

/**
 * In one partition stream: the first claim another member appended after the pause (the
 * takeover), and how many events the zombie's member id appended after it, claims included.
 */
function zombieAppendsAfterTakeover(events: readonly StoredEvent[], zombieMember: string, headAtPause: number) {
  const takeover = events.findIndex(
    (event) =>
      event.type === 'PartitionClaimed' && event.globalPosition > headAtPause && writtenBy(event) !== zombieMember,
  );
  const zombieScansBeforePause = events.filter(
    (event) =>
      event.type === 'ScanRecorded' && event.globalPosition <= headAtPause && writtenBy(event) === zombieMember,
  ).length;
  if (takeover === -1) return { zombieScansBeforePause, takeoverClaimedBy: undefined, zombieEventsAfterTakeover: 0 };
  return {
    zombieScansBeforePause,
    takeoverClaimedBy: writtenBy(events[takeover]!) as string,
    zombieEventsAfterTakeover: events.slice(takeover + 1).filter((event) => writtenBy(event) === zombieMember).length,
  };
}

/** The group member that appended `event` to its partition stream. */
function writtenBy(event: StoredEvent): unknown {
  return event.type === 'PartitionClaimed' ? (event.data as { memberId: string }).memberId : event.metadata[MEMBER_KEY];
}

/** Batches the ingestor stopped because another one had claimed the partition meanwhile. */
function fencedBatches(ingestor: WorkerProcess): number {
  return ingestor.logs.filter((line) => line.msg === 'partition claimed by another ingestor; batch left to it').length;
}

/** Takes the SQLite write lock the way an appender does, until the returned function is called. */
function holdWriteLock(databaseFile: string): () => void {
  const db = new Database(databaseFile, { timeout: scaled(5_000) });
  db.exec('BEGIN IMMEDIATE');
  return () => {
    db.exec('ROLLBACK');
    db.close();
  };
}
