/*
 * The event store's writer thread (see sqlite-writer.ts): its own connection to the file, the
 * group commit of sqlite-appender.ts, and a message back for each message of appends it was sent.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createSqliteAppender } from './sqlite-appender';
import { openEventDatabase } from './sqlite-database';
import {
  type AppendOutcome,
  type FromWriter,
  toWireError,
  type ToWriter,
  type WriterThreadData,
} from './sqlite-writer-protocol';

const port = parentPort!;
const { path, synchronous } = workerData as WriterThreadData;
const db = openEventDatabase(path, synchronous);
const appender = createSqliteAppender(db);
const inFlight = new Set<Promise<void>>();

port.on('message', (message: ToWriter) => {
  if (message.kind === 'close') {
    void close();
    return;
  }
  // Queued in one go, so they are committed together (the appender commits on the next turn).
  const outcomes = message.appends.map((append) =>
    appender.append(append).then(
      (result): AppendOutcome => ({ ok: true, result }),
      (error: unknown): AppendOutcome => ({ ok: false, error: toWireError(error) }),
    ),
  );
  const answered = Promise.all(outcomes).then((settled) => {
    port.postMessage({ kind: 'settled', firstId: message.firstId, outcomes: settled } satisfies FromWriter);
  });
  inFlight.add(answered);
  void answered.finally(() => inFlight.delete(answered));
});

/**
 * Commits what is queued, answers it, and only then closes: nothing acknowledged is dropped. The
 * thread then ends, which is what its starter waits for.
 */
async function close(): Promise<void> {
  appender.flush();
  await Promise.all(inFlight);
  db.close();
  port.close();
}
