export * from './replay-donations';
export * from './replay-format';
export * from './replay-tally';
export * from './replay-window';
export * from './reconcile';
