/** Contract suites every adapter of a port must pass; they use vitest, so only tests import them. */
export * from './event-sourcing/event-store.contract';
export * from './identity/credentials-store.contract';
export * from './mail/outbox-store.contract';
