export * from './events';
export * from './openapi';
export * from './rest';
export * from './route';
export * from './routes';
export * from './route-match';
export * from './api-call';
export * from './route-addresses';
