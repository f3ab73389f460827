import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, expect, it } from 'vitest';

/** Threads that open one file at the same instant, round after round: as many as CI has cores and more. */
const OPENERS = 4;
const ROUNDS = 50;

/*
 * Each thread opens the round's file with openSqliteFile once the main thread lets them all go at
 * once (the `go` word), and answers the file's journal mode or the error's code. Through tsx's
 * require hook, as sqlite-writer.ts starts its thread from the sources.
 */
const THREAD = `
  const { parentPort, workerData } = require('node:worker_threads');
  require(${JSON.stringify(createRequire(import.meta.url).resolve('tsx/cjs/api'))}).register();
  const { openSqliteFile } = require(${JSON.stringify(fileURLToPath(new URL('../src/sqlite-database.ts', import.meta.url)))});
  const go = new Int32Array(workerData.go);
  parentPort.on('message', ({ file, round }) => {
    parentPort.postMessage('ready');
    while (Atomics.load(go, 0) < round) Atomics.wait(go, 0, round - 1);
    try {
      const db = openSqliteFile(file, {
        synchronous: 'NORMAL',
        setUp: (opened) => opened.exec('CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY)'),
      });
      const mode = db.pragma('journal_mode', { simple: true });
      db.close();
      parentPort.postMessage({ mode });
    } catch (error) {
      parentPort.postMessage({ error: error.code ?? error.message });
    }
  });
`;

let dir: string;
const go = new SharedArrayBuffer(4);
const threads: Worker[] = [];
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'qrshirt-sqlite-open-'));
  for (let i = 0; i < OPENERS; i++) threads.push(new Worker(THREAD, { eval: true, execArgv: [], workerData: { go } }));
});
afterAll(async () => {
  await Promise.all(threads.map((thread) => thread.terminate()));
  await rm(dir, { recursive: true, force: true });
});

const next = (thread: Worker) =>
  new Promise<unknown>((resolve, reject) => {
    thread.once('message', resolve);
    thread.once('error', reject);
  });

it('opens one new file from several connections at the same instant, each in WAL', async () => {
  const answers: unknown[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const file = path.join(dir, `round-${round}.sqlite`);
    const ready = threads.map(next);
    for (const thread of threads) thread.postMessage({ file, round });
    await Promise.all(ready);
    const opened = threads.map(next);
    Atomics.store(new Int32Array(go), 0, round);
    Atomics.notify(new Int32Array(go), 0);
    answers.push(...(await Promise.all(opened)));
  }
  expect(answers).toEqual(Array.from({ length: OPENERS * ROUNDS }, () => ({ mode: 'wal' })));
});
