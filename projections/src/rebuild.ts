import type { EventStore } from '@qrshirt/core';
import { type ProjectionLog, opsForBatch } from './apply-batch';
import type { Projector } from './projectors/projector';
import type { ReadModelStore } from './store/read-model-store';

export interface RebuildProgress {
  projection: string;
  version: number;
  checkpoint: number;
  head: number;
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
): Promise<void> {
  const projection = store.projection(projector.name, version);
  let checkpoint = await projection.checkpoint();
  const head = await eventStore.headPosition();
  for (;;) {
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
    onProgress({ projection: projector.name, version, checkpoint, head: Math.max(head, checkpoint) });
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
}): Promise<{ from: number; to: number }> {
  const { eventStore, store, projector, log, onProgress = () => {}, batchSize = 2000 } = options;
  const previous = await store.activeVersion(projector.name);
  const next = await store.createVersion(projector.name);
  await catchUp(eventStore, store, projector, next, log, onProgress, batchSize);
  await store.activate(projector.name, next);
  await catchUp(eventStore, store, projector, next, log, onProgress, batchSize);
  await store.dropVersion(projector.name, previous);
  return { from: previous, to: next };
}
