import { type DomainEvent, readEvent } from '@qrshirt/contracts';
import type { StoredEvent, Projector, ReadModelOp } from '@qrshirt/core';
import { compactOps } from './compact-ops';

export interface ProjectionLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * Each stored event read as its contract says, once: the SQLite store hands every projection that
 * follows an event the same object (see its recent-events.ts), and under a crowd of scans
 * validating each scan again for each of them was a measurable share of the gateway's time.
 * Kept per object, so it is gone with the object.
 */
const readEvents = new WeakMap<StoredEvent, DomainEvent | { failed: unknown }>();

function readStored(stored: StoredEvent): DomainEvent {
  let read = readEvents.get(stored);
  if (!read) {
    try {
      read = readEvent(stored.type, stored.data, stored.metadata);
    } catch (error) {
      read = { failed: error };
    }
    readEvents.set(stored, read);
  }
  if ('failed' in read) throw read.failed;
  return read;
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
      event = readStored(stored);
    } catch (error) {
      log.error({ projection: projector.name, globalPosition: stored.globalPosition, err: error }, 'event skipped');
      continue;
    }
    for (const op of projector.project(event, stored)) ops.push(op);
  }
  return compactOps(ops);
}
