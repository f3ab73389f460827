/** Contract suites every adapter of a port must pass; they use vitest, so only tests import them. */
export * from './kit/event-store.contract';
export * from './ports/credentials-store.contract';
export * from './ports/outbox-store.contract';
