export * from './in-process-batcher';
export * from './ingestion';
