export * from './redis-change-feed';
export * from './redis-credentials-store';
export * from './redis-outbox-store';
export * from './redis-read-model-store';
