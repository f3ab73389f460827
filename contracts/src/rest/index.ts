export * from './analytics';
export * from './charities';
export * from './errors';
export * from './fundraisers';
export * from './ids';
export * from './shirts';
export * from './users';
export * from './waitlist';
