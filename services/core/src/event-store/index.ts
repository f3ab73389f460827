export * from './event-store';
export { createSqliteEventStore, type SqliteEventStoreOptions } from './sqlite-event-store';
export { openSqliteFile, type SqliteSynchronous } from './sqlite-database';
export { createEventStoreDbEventStore, type EventStoreDbEventStoreOptions } from './esdb-event-store';
export { instrumentEventStore } from './instrumented-event-store';
export { eventStoreFile, openEventStore } from './open-event-store';
