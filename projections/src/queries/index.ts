export * from './admin-audit-queries';
export * from './catalog-queries';
export * from './overview-queries';
export * from './user-queries';
export * from './waitlist-queries';
export * from './funnel-queries';
