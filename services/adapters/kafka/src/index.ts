export * from './kafka-admin';
export * from './kafka-brokers';
export * from './kafka-ingestion';
export * from './kafka-messages';
export * from './kafka-topics';
