import type { EventStore, Projector, ReadModelStore } from '@qrshirt/core';
import { type ProjectionLog, opsForBatch } from './apply-batch';

export interface RebuildProgress {
  projection: string;
  version: number;
  checkpoint: number;
  head: number;
  /** Events of the projection's types projected so far by this rebuild. */
  eventsProjected: number;
}

/** Projects every event of the projection's types into `version`, from its checkpoint on. */
async function catchUp(
  eventStore: EventStore,
  store: ReadModelStore,
  projector: Projector,
  version: number,
  log: ProjectionLog,
  onProgress: (progress: RebuildProgress) => void,
  batchSize: number,
  projected: { events: number },
  signal: AbortSignal | undefined,
): Promise<void> {
  const projection = store.projection(projector.name, version);
  let checkpoint = await projection.checkpoint();
  const head = await eventStore.headPosition();
  for (;;) {
    signal?.throwIfAborted();
    const events = await eventStore.readAll({
      ...(checkpoint !== null && { after: checkpoint }),
      eventTypes: projector.eventTypes,
      maxCount: batchSize,
    });
    const last = events.at(-1);
    if (!last) return;
    // A live runner may have moved the checkpoint after the switch; its work stands, reload it.
    if (!(await projection.commit(checkpoint, last.globalPosition, opsForBatch(projector, events, log)))) {
      checkpoint = await projection.checkpoint();
      continue;
    }
    checkpoint = last.globalPosition;
    projected.events += events.length;
    onProgress({
      projection: projector.name,
      version,
      checkpoint,
      head: Math.max(head, checkpoint),
      eventsProjected: projected.events,
    });
    // With a synchronous store (in-process) nothing else would run until the rebuild ended:
    // readers and the live runner get their turn between batches.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/**
 * Blue/green rebuild: project from position 0 into a fresh version while readers keep the
 * active one, switch the pointer once caught up, catch up the few events that landed during
 * the switch, then drop the old version. Readers never see an empty or half-built model.
 */
export async function rebuildProjection(options: {
  eventStore: EventStore;
  store: ReadModelStore;
  projector: Projector;
  log: ProjectionLog;
  onProgress?: (progress: RebuildProgress) => void;
  batchSize?: number;
  /** Stops between batches; before the switch, the unfinished version is dropped. */
  signal?: AbortSignal;
}): Promise<{ from: number; to: number }> {
  const { eventStore, store, projector, log, onProgress = () => {}, batchSize = 2000, signal } = options;
  const previous = await store.activeVersion(projector.name);
  const next = await store.createVersion(projector.name);
  const projected = { events: 0 };
  try {
    await catchUp(eventStore, store, projector, next, log, onProgress, batchSize, projected, signal);
  } catch (error) {
    // Nobody reads the new version yet: leave no keys behind for it.
    await store.dropVersion(projector.name, next).catch(() => {});
    throw error;
  }
  await store.activate(projector.name, next);
  // Past the switch, only what landed meanwhile is left: finish, so the old version is dropped.
  await catchUp(eventStore, store, projector, next, log, onProgress, batchSize, projected, undefined);
  await store.dropVersion(projector.name, previous);
  return { from: previous, to: next };
}
