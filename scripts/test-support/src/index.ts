/**
 * What the suites, the benchmarks and `npm run start:distributed` share: local servers (Redis,
 * Kafka, SMTP) on free loopback ports, and what the product wrote as mail.
 * The describe blocks that need vitest are in `@qrshirt/test-support/vitest`.
 */
export * from './captured-mail';
export * from './free-ports';
export * from './kafka';
export * from './redis';
export * from './require-infra';
export * from './smtp';
