export { createEventStoreDbEventStore, type EventStoreDbEventStoreOptions } from './esdb-event-store';
export { openEventStoreDbCopyingLog } from './esdb-log-copies';
