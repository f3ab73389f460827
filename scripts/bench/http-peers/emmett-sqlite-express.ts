/**
 * The scan route's peer in `npm run bench:http`: the route as an Emmett user would write it, Express
 * 5 and `@event-driven-io/emmett-sqlite`, one event appended per scan to a SQLite file and 202 once
 * it is stored. Started by http.ts in its own process on PORT, with its file at EVENTS_FILE.
 */
import { randomUUID } from 'node:crypto';
import { getSQLiteEventStore } from '@event-driven-io/emmett-sqlite';
import express from 'express';

const eventStore = getSQLiteEventStore({ fileName: process.env.EVENTS_FILE });

/*
 * The store opens a connection for each call and closes it after, and calls at the same time share
 * it: at 50 connections appends fail with SQLITE_BUSY or a closed database. One at a time, then.
 * Even so emmett-sqlite 0.38.5 fails about one commit in a hundred with "SQLITE_BUSY: cannot
 * commit transaction - SQL statements in progress"; those 500s are the errors the benchmark's
 * table counts for it.
 */
let previous: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(append: () => Promise<T>): Promise<T> {
  const next = previous.then(append);
  previous = next.catch(() => undefined);
  return next;
}

const app = express();
app.use(express.json());
app.post('/api/fundraisers/:id/scan', async (req, res) => {
  const fundraiserId = req.params.id;
  const scanId = randomUUID();
  await oneAtATime(() =>
    eventStore.appendToStream(`fundraiser-${fundraiserId}`, [
      { type: 'ScanRecorded', data: { scanId, fundraiserId, at: new Date().toISOString() } },
    ]),
  );
  res.status(202).json({ scanId });
});
app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
