export * from './apply-batch';
export * from './catch-up';
export * from './change-feed';
export * from './projection-monitor';
export * from './projectors';
export * from './rebuild';
export * from './rebuild-jobs';
export * from './replay';
export * from './runner';
export * from './start-projections';
/** The read-model store port, which core's projectors write through and this kit's runner commits. */
export type { ProjectionStore, ReadModelOp, ReadModelStore } from '@qrshirt/core';
export * from './store/read-model-store-errors';
export * from './store/memory-read-model-store';
