/** Describe blocks with a real server, for vitest suites only: they register vitest hooks. */
export * from './describe-with-host-network';
export * from './describe-with-kafka';
export * from './describe-with-redis';
export * from './describe-with-stripe-mock';
