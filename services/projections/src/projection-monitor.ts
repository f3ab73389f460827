import type { AdminProjection, AdminProjections, ProjectionState } from '@qrshirt/contracts';
import type { Clock, EventStore, Projector, ReadModelStore } from '@qrshirt/core';
import { createFirstPending } from './pending-events';
import type { RebuildJobs } from './rebuild-jobs';
import type { ProjectionRunner } from './runner';

export interface ProjectionMonitor {
  find(name: string): Projector | undefined;
  status(): Promise<AdminProjections>;
}

/**
 * How far each projection is behind the log, read from the read models' checkpoints and the
 * event store, so it holds whichever process projects. Only a runner in this process can say
 * that its last attempt failed; a projector process that is down shows as a growing lag.
 */
export function createProjectionMonitor(options: {
  eventStore: EventStore;
  store: ReadModelStore;
  projectors: readonly Projector[];
  /** The runners of this process, by projection name (none when a projector process runs them). */
  runners: ReadonlyMap<string, ProjectionRunner>;
  rebuilds: RebuildJobs;
  clock: Clock;
}): ProjectionMonitor {
  const { eventStore, store, projectors, runners, rebuilds, clock } = options;
  const firstPending = createFirstPending(eventStore);

  async function statusOf(projector: Projector, head: number): Promise<AdminProjection> {
    const [activeVersion, checkpoint] = await Promise.all([
      store.activeVersion(projector.name),
      store.projection(projector.name).checkpoint(),
    ]);
    // The checkpoint is the last event of its types handled, so events of other types may lie
    // beyond it with nothing left to do: only a pending event of its own types is lag.
    const pending = await firstPending(projector.name, projector.eventTypes, checkpoint);
    const lastError = runners.get(projector.name)?.status().lastError ?? null;
    const rebuild = rebuilds.get(projector.name);
    let state: ProjectionState = 'running';
    if (rebuild?.state === 'running') state = 'rebuilding';
    else if (lastError !== null) state = 'failed';
    else if (pending) state = 'catching-up';
    return {
      name: projector.name,
      state,
      activeVersion,
      checkpoint,
      // Positions that are byte offsets (EventStoreDB) cannot be subtracted into a count.
      lagEvents: eventStore.positionUnit !== 'events' ? null : pending ? head - (checkpoint ?? 0) : 0,
      lagSeconds: pending ? Math.max(0, (clock().getTime() - pending.recordedAt.getTime()) / 1000) : 0,
      lastError,
      rebuild,
    };
  }

  return {
    find: (name) => projectors.find((projector) => projector.name === name),
    async status() {
      const headPosition = await eventStore.headPosition();
      const projections = await Promise.all(projectors.map((projector) => statusOf(projector, headPosition)));
      return { headPosition, positionUnit: eventStore.positionUnit, projections };
    },
  };
}
