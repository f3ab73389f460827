/**
 * Replays the donation history from the event log for analysts:
 *   npm run -s replay-donations -- [--from DATE] [--to DATE] [--group-by day|charity|fundraiser|shirt]
 *                                  [--format csv|ndjson|table] [--as-of DATE] [--out FILE]
 * `--help` says what each option means. The replay itself is `replayDonations` in projections,
 * which the admin area's download uses too; this file is only the command line around it.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createEventStoreDbEventStore } from '@qrshirt/eventstoredb';
import { createSqliteEventStore } from '@qrshirt/sqlite';
import { ReplayArgumentError, formatReplay, replayDonations } from '@qrshirt/projections';
import { restrictNewFiles } from '@qrshirt/runtime';
import { createProgress } from './replay/progress';
import { type ReplayArgs, parseReplayArgs, replaySource, replayUsage } from './replay/replay-args';

const NAME = 'replay-donations';

let args: ReplayArgs;
try {
  args = parseReplayArgs(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof ReplayArgumentError)) throw error;
  console.error(`${NAME}: ${error.message} (see --help)`);
  process.exit(2);
}
if (args.help) {
  process.stdout.write(replayUsage);
  process.exit(0);
}

// Reading the SQLite log may create its -wal and -shm in DATA_DIR, and the report holds donations:
// both owner-only.
restrictNewFiles();
const source = replaySource(process.env);
// Opening a missing SQLite file would create an empty store and report nothing, silently.
if (source.kind === 'sqlite' && !existsSync(source.file)) {
  console.error(`${NAME}: no event store at ${source.file} (set DATA_DIR, or EVENTSTORE_URL)`);
  process.exit(2);
}
const eventStore =
  source.kind === 'eventstoredb'
    ? createEventStoreDbEventStore({ connectionString: source.url })
    : createSqliteEventStore({ path: source.file });

const progress = createProgress(process.stderr, NAME);
try {
  const result = await replayDonations({
    eventStore,
    groupBy: args.groupBy,
    window: args.window,
    onProgress: ({ position, head, eventsRead }) => progress.update(position, head, `${eventsRead} events`),
  });
  progress.finish();
  if (result.unreadable > 0) {
    console.error(
      `${NAME}: ${result.unreadable} events no longer read as their contract says; skipped, as the projectors skip them`,
    );
  }
  const text = formatReplay(result, args.format);
  if (args.out === undefined) process.stdout.write(text);
  else await writeFile(args.out, text);
} catch (error) {
  progress.finish();
  console.error(`${NAME}: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await eventStore.close();
}
