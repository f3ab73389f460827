export * from './config';
export * from './ingestor';
export * from './partition-stream';
export * from './partition-writer';
