export * from './change-feed';
export * from './memory-change-feed';
export * from './publish-live-changes';
export * from './topic-listeners';
