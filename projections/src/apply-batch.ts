import { readEvent } from '@qrshirt/contracts';
import type { StoredEvent } from '@qrshirt/core';
import { compactOps } from './compact-ops';
import type { Projector } from './projectors/projector';
import type { ReadModelOp } from './store/read-model-store';

export interface ProjectionLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * Ops for a batch of stored events. An event that no longer reads as its contract says cannot
 * be projected; it is logged and passed over rather than stopping every later event.
 */
export function opsForBatch(projector: Projector, events: readonly StoredEvent[], log: ProjectionLog): ReadModelOp[] {
  const ops: ReadModelOp[] = [];
  for (const stored of events) {
    let event;
    try {
      event = readEvent(stored.type, stored.data, stored.metadata);
    } catch (error) {
      log.error({ projection: projector.name, globalPosition: stored.globalPosition, err: error }, 'event skipped');
      continue;
    }
    for (const op of projector.project(event, stored)) ops.push(op);
  }
  return compactOps(ops);
}
