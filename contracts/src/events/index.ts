import type { z } from 'zod';
import type { EventDefinition } from './define-event';
import { type DomainEvent, type EventType, eventDefinitions } from './definitions';
import { ScanRecorded, readScanRecordedData } from './fundraisers';

export * from './admin-audit';
export * from './analytics';
export * from './charities';
export * from './define-event';
export * from './definitions';
export * from './donations';
export * from './fundraiser-changes';
export * from './fundraisers';
export * from './lookup-keys';
export * from './payouts';
export * from './personal-data';
export * from './shirts';
export * from './users';
export * from './waitlist';

export const analyticsEventTypes = ['PageViewed', 'ShirtClicked', 'WaitlistSignup', 'DonationCompleted'] as const;

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(eventDefinitions, type);
}

/** Metadata key that records which schema version an event was written with. */
export const SCHEMA_VERSION = 'schemaVersion';

export class UnknownEventError extends Error {
  constructor(
    readonly eventType: string,
    reason: string,
  ) {
    super(`Cannot read event ${eventType}: ${reason}`);
    this.name = 'UnknownEventError';
  }
}

/** Stamps an outgoing event with its schema version (merged into the caller's metadata). */
export function eventMetadata(type: EventType, metadata: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...metadata, [SCHEMA_VERSION]: eventDefinitions[type].version };
}

/** Upcasts stored data from the version it was written with, then validates it. */
export function readEvent(type: string, data: unknown, metadata: Record<string, unknown>): DomainEvent {
  // Most of the log: a current scan is read before the look-up of its type, which hashes the
  // type's string, new for every row read (a twentieth of a donation replay, issue 33).
  if (type === 'ScanRecorded' && metadata[SCHEMA_VERSION] === ScanRecorded.version) {
    const scan = readScanRecordedData(data);
    if (scan) return { type, data: scan };
  }
  if (!isEventType(type)) throw new UnknownEventError(type, 'unknown type');
  const definition: EventDefinition<string, z.ZodType> = eventDefinitions[type];
  let version = typeof metadata[SCHEMA_VERSION] === 'number' ? metadata[SCHEMA_VERSION] : 1;
  let current = data;
  while (version < definition.version) {
    const upcast = definition.upcasters[version];
    if (!upcast) throw new UnknownEventError(type, `no upcaster from version ${version}`);
    current = upcast(current);
    version += 1;
  }
  if (type === 'ScanRecorded') {
    const scan = readScanRecordedData(current);
    if (scan) return { type, data: scan };
  }
  const parsed = definition.schema.safeParse(current);
  if (!parsed.success) throw new UnknownEventError(type, parsed.error.message);
  return { type, data: parsed.data } as DomainEvent;
}
