import type { DomainEvent, EventType } from '@qrshirt/contracts';
import type { ReadModelOp } from '../ports/read-model-store';

export interface EventPosition {
  globalPosition: number;
  recordedAt: Date;
}

/** Turns each event into read-model ops; never reads, so replays are deterministic. */
export interface Projector {
  name: string;
  eventTypes: readonly EventType[];
  project(event: DomainEvent, position: EventPosition): ReadModelOp[];
}
