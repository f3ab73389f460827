export * from './in-process-batcher';
export * from './log-cap';
export * from '../ports/ingestion';
export * from '../kit/micro-batcher';
