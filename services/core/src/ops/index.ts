export * from './env-config';
export * from './log-redaction';
export * from './metrics-registry';
export * from './ops-server';
export * from './readiness';
export * from './shutdown';
