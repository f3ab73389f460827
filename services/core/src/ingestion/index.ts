export * from './in-process-batcher';
export * from './ingestion';
export * from './micro-batcher';
export * from './kafka-ingestion';
export * from './kafka-messages';
export * from './kafka-topics';
export * from './kafka-brokers';
export * from './kafka-admin';
