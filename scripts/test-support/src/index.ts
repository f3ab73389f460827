/**
 * What the suites, the benchmarks and `npm run start:distributed` share: the product's processes
 * and local servers (Redis, Kafka, SMTP, stripe-mock) on free loopback ports or on hosts of their own (network
 * namespaces), and clients to talk to them.
 * The describe blocks that need vitest are in `@qrshirt/test-support/vitest`.
 */
export * from './accounts';
export * from './api-client';
export * from './captured-mail';
export * from './cookie-jar';
export * from './deadlines';
export * from './eventually';
export * from './fault-proxy';
export * from './find-executable';
export * from './free-ports';
export * from './host-network';
export * from './kafka';
export * from './launch';
export * from './proof-of-work';
export * from './redis';
export * from './require-infra';
export * from './log-reads';
export * from './scan-ledger';
export * from './scan-load';
export * from './scanners';
export * from './seeded-random';
export * from './small-disk';
export * from './service-processes';
export * from './smtp';
export * from './stripe-mock';
export * from './stripe-recording-proxy';
