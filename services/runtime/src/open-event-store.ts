import path from 'node:path';
import { createEventStoreDbEventStore } from '@qrshirt/eventstoredb';
import type { EventStore } from '@qrshirt/core';
import { createSqliteEventStore } from '@qrshirt/sqlite';

/** The SQLite file in DATA_DIR that the processes on one machine share. */
export const eventStoreFile = (dataDir: string): string => path.resolve(dataDir, 'events.sqlite');

/** The event store a process's configuration names: EventStoreDB when it has a URL, else the SQLite file. */
export function openEventStore(config: {
  EVENTSTORE_URL?: string | undefined;
  EVENTSTORE_MAX_APPEND_BYTES?: number | undefined;
  EVENTSTORE_MAX_EVENT_BYTES?: number | undefined;
  EVENTSTORE_SECONDARY_INDEXES?: 'on' | 'off' | undefined;
  DATA_DIR: string;
}): EventStore {
  return config.EVENTSTORE_URL
    ? createEventStoreDbEventStore({
        connectionString: config.EVENTSTORE_URL,
        ...(config.EVENTSTORE_MAX_APPEND_BYTES !== undefined && { maxAppendBytes: config.EVENTSTORE_MAX_APPEND_BYTES }),
        ...(config.EVENTSTORE_MAX_EVENT_BYTES !== undefined && { maxEventBytes: config.EVENTSTORE_MAX_EVENT_BYTES }),
        secondaryIndexes: config.EVENTSTORE_SECONDARY_INDEXES === 'on',
      })
    : createSqliteEventStore({ path: eventStoreFile(config.DATA_DIR) });
}
