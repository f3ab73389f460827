import {
  SubscriptionRefusedError,
  type EventStore,
  type StoredEvent,
  type Subscription,
  type Projector,
  type ReadModelStore,
} from '@qrshirt/core';
import { type ProjectionLog, opsForBatch } from './apply-batch';
import { createFirstPending } from './pending-events';

export interface ProjectionStatus {
  name: string;
  checkpoint: number | null;
  running: boolean;
  lastError: string | null;
  /** When the checkpoint last moved (ms since epoch), for lag in seconds. */
  lastCommitAt: number | null;
}

export interface ProjectionRunner {
  start(): void;
  stop(): Promise<void>;
  status(): ProjectionStatus;
  /** True when no event of this projection's types lies beyond its checkpoint. */
  caughtUp(): Promise<boolean>;
  /** Resolves once caught up (polling), rejects after `timeoutMs`. */
  waitUntilCaughtUp(timeoutMs?: number): Promise<void>;
}

export interface ProjectionRunnerOptions {
  eventStore: EventStore;
  store: ReadModelStore;
  projector: Projector;
  log: ProjectionLog;
  batchSize?: number;
  retryDelayMs?: number;
  /** Called after each batch is committed with its checkpoint (live updates are announced here). */
  onCommitted?(events: readonly StoredEvent[]): void;
}

/** Another writer moved the checkpoint (a blue/green switch, or a second runner). */
class CheckpointMoved extends Error {}

/**
 * Follows the event store from the projection's checkpoint and commits each batch's ops with
 * the checkpoint in one atomic, guarded step: a crash never double-counts or skips, and a
 * runner that finds the checkpoint moved reloads it and continues from there.
 */
export function createProjectionRunner(options: ProjectionRunnerOptions): ProjectionRunner {
  const { eventStore, store, projector, log, batchSize = 1000, retryDelayMs = 500 } = options;
  const projection = store.projection(projector.name);
  const status: ProjectionStatus = {
    name: projector.name,
    checkpoint: null,
    running: false,
    lastError: null,
    lastCommitAt: null,
  };
  let subscription: Subscription | undefined;
  let loop: Promise<void> | undefined;
  let stopping = false;

  async function follow(): Promise<void> {
    let checkpoint = await projection.checkpoint();
    status.checkpoint = checkpoint;
    // stop() may have run while the checkpoint loaded: a subscription opened now would outlive it.
    if (stopping) return;
    subscription = eventStore.subscribe({
      ...(checkpoint !== null && { after: checkpoint }),
      eventTypes: projector.eventTypes,
      batchSize,
      async onEvents(events) {
        const last = events.at(-1);
        if (!last) return;
        const ops = opsForBatch(projector, events, log);
        if (!(await projection.commit(checkpoint, last.globalPosition, ops))) throw new CheckpointMoved();
        checkpoint = last.globalPosition;
        status.checkpoint = checkpoint;
        status.lastCommitAt = Date.now();
        status.lastError = null;
        try {
          options.onCommitted?.(events);
        } catch (error) {
          // The batch is committed: a failing listener must not make the runner project it again.
          log.warn({ projection: projector.name, err: error }, 'onCommitted failed');
        }
      },
    });
    await subscription.done;
  }

  async function run(): Promise<void> {
    while (!stopping) {
      try {
        await follow();
      } catch (error) {
        if (error instanceof CheckpointMoved || stopping) continue;
        status.lastError = error instanceof Error ? error.message : String(error);
        if (error instanceof SubscriptionRefusedError) {
          status.running = false;
          log.error({ projection: projector.name, err: error }, 'projection stopped: the event store refused it');
          return;
        }
        log.warn({ projection: projector.name, err: error }, 'projection failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
      }
    }
  }

  const firstPending = createFirstPending(eventStore);
  async function caughtUp(): Promise<boolean> {
    const checkpoint = await projection.checkpoint();
    return (await firstPending(projector.name, projector.eventTypes, checkpoint)) === undefined;
  }

  /**
   * A checkpoint moves only with an event of the projection's types, so after a long run of other
   * types (millions of scans past the catalogue's last event) a restart would search that whole
   * run again before it knew it was caught up. When nothing of its types lies up to the head, the
   * checkpoint is moved there with no ops, guarded like any commit: if the live runner committed
   * meanwhile, this simply does nothing (and if it wins, the runner reloads the checkpoint).
   */
  async function skipToHead(): Promise<void> {
    const checkpoint = await projection.checkpoint();
    // Read before searching: firstPending finding nothing beyond the checkpoint covers it.
    const head = await eventStore.headPosition();
    if (head <= (checkpoint ?? 0)) return;
    if ((await firstPending(projector.name, projector.eventTypes, checkpoint)) !== undefined) return;
    if (await projection.commit(checkpoint, head, [])) status.checkpoint = head;
  }

  return {
    start() {
      if (loop) return;
      stopping = false;
      status.running = true;
      loop = run();
    },
    async stop() {
      stopping = true;
      await subscription?.stop();
      await loop;
      loop = undefined;
      status.running = false;
      try {
        await skipToHead();
      } catch (error) {
        // Only the next start's speed depends on it: stopping goes on.
        log.warn({ projection: projector.name, err: error }, 'could not record the checkpoint at the head');
      }
    },
    status: () => ({ ...status }),
    caughtUp,
    async waitUntilCaughtUp(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!(await caughtUp())) {
        if (Date.now() > deadline) throw new Error(`Projection ${projector.name} did not catch up in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await skipToHead();
    },
  };
}

/** For GET /readyz: rejects naming each projection the event store refused for good. */
export async function projectionsRunning(runners: Iterable<ProjectionRunner>): Promise<void> {
  const refused = [...runners]
    .map((runner) => runner.status())
    .filter((status) => !status.running && status.lastError !== null)
    .map((status) => `${status.name}: ${status.lastError}`);
  if (refused.length > 0) throw new Error(`projection stopped: ${refused.join('; ')}`);
}
