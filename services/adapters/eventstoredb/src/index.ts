export { createEventStoreDbEventStore, type EventStoreDbEventStoreOptions } from './esdb-event-store';
