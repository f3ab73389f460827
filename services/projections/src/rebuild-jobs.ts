import type { RebuildStatus } from '@qrshirt/contracts';
import type { Clock, EventStore, Projector, ReadModelStore } from '@qrshirt/core';
import type { ProjectionLog } from './apply-batch';
import { rebuildProjection } from './rebuild';

export interface RebuildJobs {
  /** Starts a blue/green rebuild in the background; the caller checks that none is running. */
  start(projector: Projector): RebuildStatus;
  /** The last rebuild of this projection started here, running or finished. */
  get(name: string): RebuildStatus | null;
  /** Stops running rebuilds between batches (their unfinished versions are dropped) and waits. */
  close(): Promise<void>;
}

/**
 * Rebuilds started by operators (POST /api/admin/projections/{name}/rebuild), run in this
 * process next to whatever serves readers: blue/green, so readers keep the active version
 * until the new one has caught up. Progress lives here, in memory: it is this process's job.
 */
export function createRebuildJobs(options: {
  eventStore: EventStore;
  store: ReadModelStore;
  log: ProjectionLog;
  clock: Clock;
}): RebuildJobs {
  const { eventStore, store, log, clock } = options;
  const jobs = new Map<string, RebuildStatus>();
  const running = new Set<Promise<void>>();
  const stop = new AbortController();

  return {
    start(projector) {
      const status: RebuildStatus = {
        projection: projector.name,
        state: 'running',
        fromVersion: 0,
        toVersion: null,
        done: 0,
        total: 0,
        eventsProjected: 0,
        startedAt: clock().toISOString(),
        finishedAt: null,
        error: null,
      };
      jobs.set(projector.name, status);
      const run = (async () => {
        try {
          status.fromVersion = await store.activeVersion(projector.name);
          status.total = await eventStore.headPosition();
          const { to } = await rebuildProjection({
            eventStore,
            store,
            projector,
            log,
            signal: stop.signal,
            onProgress(progress) {
              status.toVersion = progress.version;
              status.done = progress.checkpoint;
              status.total = progress.head;
              status.eventsProjected = progress.eventsProjected;
            },
          });
          status.toVersion = to;
          status.done = status.total;
          status.state = 'done';
        } catch (error) {
          status.state = 'failed';
          status.error = error instanceof Error ? error.message : String(error);
          log.error({ projection: projector.name, err: error }, 'rebuild failed');
        } finally {
          status.finishedAt = clock().toISOString();
        }
      })();
      running.add(run);
      void run.finally(() => running.delete(run));
      return { ...status };
    },
    get(name) {
      const status = jobs.get(name);
      return status ? { ...status } : null;
    },
    async close() {
      stop.abort(new Error('The process is shutting down'));
      await Promise.all(running);
    },
  };
}
