export { openSqliteFile, type SqliteSynchronous } from './sqlite-database';
export { createSqliteEventStore, type SqliteEventStoreOptions } from './sqlite-event-store';
export * from './sqlite-credentials-store';
export * from './sqlite-outbox-store';
export { createSqliteReadModelStore, type SqliteReadModelStoreOptions } from './sqlite-read-model-store';
export { assertSqliteFileFree, SqliteFileInUseError } from './sqlite-exclusive';
export { openSqliteRewritableLog } from './sqlite-log-rewrite';
export { openSqliteRenamableLog } from './sqlite-stream-rename';
export { eraseSqliteReadModels } from './sqlite-read-model-store';
