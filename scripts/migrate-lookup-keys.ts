/**
 * Gives every stream named by an unkeyed hash of an address (reservations, waitlist signups) and
 * every phone identity its lookup key, once, with the product stopped (same DATA_DIR,
 * EVENTSTORE_URL, REDIS_URL, CREDENTIALS_STORE and LOOKUP_KEY_SECRET as `npm start`):
 *   npm run migrate-lookup-keys [-- --batch-size 500]
 * Idempotent and resumable: a rerun after a kill renames what is left, a rerun after completion
 * looks through every name again and changes nothing.
 */
import { existsSync } from 'node:fs';
import {
  type CopyRenameResult,
  type LookupKeys,
  LookupKeysError,
  lookupKeysRecorded,
  migrateLookupKeysByCopies,
  migrateLookupKeysInPlace,
  recordLookupKeysInUse,
  systemClock,
  UNKEYED_HASH,
} from '@qrshirt/core';
import { openEventStoreDbCopyingLog } from '@qrshirt/eventstoredb';
import { lookupKeysOf, openCredentialsStore } from '@qrshirt/gateway';
import { eventStoreFile, openEventStore } from '@qrshirt/runtime';
import { assertSqliteFileFree, openSqliteRenamableLog, SqliteFileInUseError } from '@qrshirt/sqlite';
import { startMigration } from './migrations/cli';
import { throttled } from './migrations/progress';
import { rebuildReadModels } from './migrations/read-models';

const NAME = 'migrate-lookup-keys';
const usage = (defaultBatchSize: number) => `Usage: npm run ${NAME} -- [--batch-size N]

Renames every stream named by an unkeyed hash of an email address (email-<hash>,
waitlist-<shirtId>.<hash>) to the name its lookup key gives it, and gives every phone identity
its lookup key, so nothing in the log or the credentials can be tested against a known address or
number without LOOKUP_KEY_SECRET. Run it once, with the product stopped, on the environment
\`npm start\` uses (DATA_DIR, EVENTSTORE_URL, REDIS_URL, CREDENTIALS_STORE, LOOKUP_KEY_SECRET).
Safe to run again: it renames what an interrupted run left and nothing after a finished one.

Options:
  --batch-size N   stream names looked at per transaction (SQLite; default ${defaultBatchSize})
  -h, --help       this text
`;

const { batchSize, config, fail, say } = startMigration(NAME, usage);

/** Whether the log records its names as keys of this secret already (another secret's: refused). */
async function recorded(keys: LookupKeys): Promise<boolean> {
  const eventStore = openEventStore(config);
  try {
    return await lookupKeysRecorded(eventStore, keys);
  } finally {
    await eventStore.close();
  }
}

async function renameInPlace(keys: LookupKeys): Promise<void> {
  const file = eventStoreFile(config.DATA_DIR);
  const log = openSqliteRenamableLog(file);
  try {
    let progress = { examined: 0, renamed: 0 };
    const report = throttled(say, () => `streams ${progress.examined} looked at, ${progress.renamed} renamed`);
    const result = await migrateLookupKeysInPlace({
      log,
      keys,
      batchSize,
      onProgress(now) {
        progress = now;
        report();
      },
    });
    if (result.wasFinished) say('the log was migrated already: looked through it again');
    if (result.resumed) say(`resumed an interrupted run, which had renamed ${result.renamedInAll - result.renamed}`);
    say(
      `streams ${result.examined} looked at, ${result.renamed} renamed by this run (${result.renamedInAll} in all), ` +
        `each event kept where it was; ${file} compacted, no old name left in it`,
    );
    say('read models hold no stream names: they stay as they are');
  } finally {
    log.close();
  }
}

/** Where each moved stream's events are hidden: $all still holds them, until a scavenge. */
async function moveByCopies(url: string, keys: LookupKeys): Promise<Map<string, number>> {
  const log = openEventStoreDbCopyingLog({ connectionString: url });
  try {
    let progress: Readonly<CopyRenameResult> | undefined;
    const report = throttled(say, () => `streams ${progress?.streams ?? 0}, ${progress?.movedStreams ?? 0} moved`);
    const result = await migrateLookupKeysByCopies({
      log,
      keys,
      onProgress(now) {
        progress = now;
        report();
      },
    });
    say(
      `${result.streams} streams named by an unkeyed hash: ${result.movedStreams} copied to their new names ` +
        `(${result.copiedEvents} events) and truncated ($tb) by this run`,
    );
    if (result.streams > 0) {
      say(
        "the originals are still in the server's files and in $all: start a scavenge (admin UI, or POST " +
          '/admin/scavenge). Until it has deleted them, the product reads $all without them (one metadata ' +
          'read per stream and read)',
      );
    }
    return result.truncatedBefore;
  } finally {
    await log.close();
  }
}

const credentials = openCredentialsStore(config);
try {
  // With EventStoreDB, the embedded gateway's read models are the one sign here that it runs.
  if (!config.EVENTSTORE_URL) {
    const file = eventStoreFile(config.DATA_DIR);
    // Opening a missing file would create an empty store and migrate nothing, silently.
    if (!existsSync(file)) fail(`no event store at ${file} (set DATA_DIR, or EVENTSTORE_URL)`, 2);
    assertSqliteFileFree(file);
  } else if (!config.REDIS_URL && existsSync(config.readModelsFile)) {
    assertSqliteFileFree(config.readModelsFile);
  }
  const keys = lookupKeysOf(config);
  if (!config.LOOKUP_KEY_SECRET) {
    say(`no LOOKUP_KEY_SECRET: keys made with ${config.lookupKeySecretFile}, as a gateway on this DATA_DIR makes them`);
  }
  const keyedBefore = await recorded(keys);
  if (config.EVENTSTORE_URL) {
    const truncatedBefore = await moveByCopies(config.EVENTSTORE_URL, keys);
    // The copies are new events at the end of $all: read models would count them as new.
    if (truncatedBefore.size > 0) await rebuildReadModels(config, truncatedBefore, say);
  } else {
    await renameInPlace(keys);
  }
  const phones = await credentials.renamePhoneSubjects((subject) =>
    UNKEYED_HASH.test(subject) ? keys.fromUnkeyed(subject) : null,
  );
  say(`${phones} phone identities and sign-ins under way given their lookup keys`);
  if (!keyedBefore) {
    const eventStore = openEventStore(config);
    try {
      await recordLookupKeysInUse(eventStore, keys, 'migration', systemClock);
    } finally {
      await eventStore.close();
    }
  }
  say('the log records that its names are lookup keys: the gateway starts on it');
  say('done');
} catch (error) {
  if (error instanceof SqliteFileInUseError) fail(error.message, 3);
  if (error instanceof LookupKeysError) fail(error.message, 2);
  fail(error instanceof Error ? error.message : String(error));
} finally {
  await credentials.close();
}
