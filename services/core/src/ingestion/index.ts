export * from './in-process-batcher';
export * from './ingestion';
export * from './micro-batcher';
