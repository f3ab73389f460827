export * from './in-process-batcher';
export * from '../ports/ingestion';
export * from '../kit/micro-batcher';
