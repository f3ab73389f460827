/**
 * Seals the names and emails that events stored before sealing hold in clear, once, with the
 * product stopped (same DATA_DIR, EVENTSTORE_URL, REDIS_URL and CREDENTIALS_STORE as `npm start`):
 *   npm run migrate-personal-data [-- --batch-size 500]
 * The one sanctioned rewrite of the log. Idempotent and resumable: a rerun after a kill goes on
 * where it stopped, a rerun after completion checks the whole log again and changes nothing.
 * The read models, which copied those values, are emptied and rebuilt from the migrated log.
 */
import { existsSync } from 'node:fs';
import {
  createClearDataSealer,
  migrateLogByCopies,
  migrateLogInPlace,
  type ClearDataSealer,
  type CopyMigrationResult,
} from '@qrshirt/core';
import { openEventStoreDbCopyingLog } from '@qrshirt/eventstoredb';
import { openCredentialsStore } from '@qrshirt/gateway';
import { eventStoreFile } from '@qrshirt/runtime';
import {
  assertSqliteFileFree,
  eraseSqliteReadModels,
  openSqliteRewritableLog,
  SqliteFileInUseError,
} from '@qrshirt/sqlite';
import { startMigration } from './migrations/cli';
import { throttled } from './migrations/progress';
import { rebuildReadModels } from './migrations/read-models';

const NAME = 'migrate-personal-data';
const usage = (defaultBatchSize: number) => `Usage: npm run ${NAME} -- [--batch-size N]

Seals, under each person's key, the names and emails that events stored before sealing hold in
clear, then empties and rebuilds the read models from the migrated log. Run it once, with the
product stopped, on the environment \`npm start\` uses (DATA_DIR, EVENTSTORE_URL, REDIS_URL,
CREDENTIALS_STORE). Safe to run again: it resumes an interrupted run and changes nothing after a
finished one.

Options:
  --batch-size N   events rewritten per transaction (SQLite; default ${defaultBatchSize})
  -h, --help       this text
`;

const { batchSize, config, fail, say } = startMigration(NAME, usage);

async function migrateSqlite(sealer: ClearDataSealer): Promise<void> {
  const file = eventStoreFile(config.DATA_DIR);
  // Opening a missing file would create an empty store and migrate nothing, silently.
  if (!existsSync(file)) fail(`no event store at ${file} (set DATA_DIR, or EVENTSTORE_URL)`, 2);
  const log = openSqliteRewritableLog(file);
  try {
    let progress = { position: 0, head: 0, rewritten: 0 };
    const report = throttled(
      say,
      () => `events ${progress.position}/${progress.head}, ${progress.rewritten} rewritten`,
    );
    const result = await migrateLogInPlace({
      log,
      sealer,
      batchSize,
      onProgress(now) {
        progress = now;
        report();
      },
    });
    if (result.wasFinished) say('the log was migrated already: checked it again');
    if (result.resumedAfter !== undefined) say(`resumed an interrupted run after event ${result.resumedAfter}`);
    say(
      `events ${result.head}/${result.head}: ${result.examined} with personal fields checked, ` +
        `${result.rewritten} rewritten by this run (${result.rewrittenInAll} in all); ` +
        `${file} compacted, no old copies left`,
    );
  } finally {
    log.close();
  }
}

/** Where each truncated stream now starts: $all still holds what lies before, until a scavenge. */
async function migrateEventStoreDb(url: string, sealer: ClearDataSealer): Promise<Map<string, number>> {
  const log = openEventStoreDbCopyingLog({ connectionString: url });
  try {
    let progress: Readonly<CopyMigrationResult> | undefined;
    const report = throttled(
      say,
      () => `streams ${progress?.streams ?? 0}, ${progress?.rewrittenStreams ?? 0} rewritten`,
    );
    const result = await migrateLogByCopies({
      log,
      sealer,
      onProgress(now) {
        progress = now;
        report();
      },
    });
    say(
      `${result.streams} streams with personal fields checked: ${result.rewrittenStreams} given sealed copies ` +
        `(${result.copiedEvents} events) and truncated before them ($tb), ` +
        `${result.completedStreams} left half done by an earlier run completed`,
    );
    if (result.awaitingScavenge > 0) {
      say(
        `${result.awaitingScavenge} events hidden by $tb, names and emails in clear, are still in the server's ` +
          'files and in $all: start a scavenge now (admin UI, or POST /admin/scavenge). Until it has deleted ' +
          'them, the product reads $all without them (one metadata read per stream and read)',
      );
    }
    return result.truncatedBefore;
  } finally {
    await log.close();
  }
}

/** Read models hold copies of the clear values: emptied, then projected again from the sealed log. */
async function renewReadModels(truncatedBefore: ReadonlyMap<string, number>): Promise<void> {
  if (!config.REDIS_URL) {
    eraseSqliteReadModels(config.readModelsFile);
    say(`${config.readModelsFile} emptied and compacted`);
  }
  await rebuildReadModels(config, truncatedBefore, say);
  if (config.REDIS_URL) {
    say(
      'Redis keeps old values in its snapshot and append-only files until they are rewritten: run BGSAVE and BGREWRITEAOF',
    );
  }
}

const credentials = openCredentialsStore(config);
try {
  // The embedded gateway keeps its read models open: with EventStoreDB, the one sign here that it runs.
  if (!config.REDIS_URL && existsSync(config.readModelsFile)) assertSqliteFileFree(config.readModelsFile);
  const sealer = createClearDataSealer({ keys: credentials });
  const truncatedBefore = config.EVENTSTORE_URL
    ? await migrateEventStoreDb(config.EVENTSTORE_URL, sealer)
    : (await migrateSqlite(sealer), new Map<string, number>());
  await renewReadModels(truncatedBefore);
  say('done');
} catch (error) {
  if (error instanceof SqliteFileInUseError) fail(error.message, 3);
  fail(error instanceof Error ? error.message : String(error));
} finally {
  await credentials.close();
}
