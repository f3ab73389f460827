export * from './api';
export * from './events';
export * from './openapi';
export * from './rest';
