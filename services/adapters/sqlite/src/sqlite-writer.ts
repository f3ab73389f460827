import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { type CommittedAppend, createSqliteAppender, type SerializedAppend } from './sqlite-appender';
import type { SqliteSynchronous } from './sqlite-database';
import { type FromWriter, fromWireError, type ToWriter, type WriterThreadData } from './sqlite-writer-protocol';

/** Where the event store's appends are committed. */
interface SqliteWriter {
  append(append: SerializedAppend): Promise<CommittedAppend>;
  /** Commits and answers every append already given, then stops. */
  close(): Promise<void>;
}

interface SqliteWriterOptions {
  path: string;
  synchronous: SqliteSynchronous;
  /** The store's own connection: the writer of an in-memory database (':memory:') must share it. */
  db: Database.Database;
}

/**
 * A file's appends are committed by a thread of their own, with its own connection. better-sqlite3
 * is synchronous, so on the caller's thread every commit (an fsync with `synchronous=FULL`) and
 * every insert held up the event loop, and with it every HTTP request: under a crowd of scans
 * that was about a quarter of the gateway's time per scan. The thread group-commits what arrives
 * while it commits (sqlite-appender.ts), so batches grow with the load.
 * An in-memory database exists in one connection only: there the store's own commits in place.
 */
export function createSqliteWriter(options: SqliteWriterOptions): SqliteWriter {
  return options.path === ':memory:' ? inPlaceWriter(options.db) : threadWriter(options);
}

function inPlaceWriter(db: Database.Database): SqliteWriter {
  const appender = createSqliteAppender(db);
  return {
    append: (append) => appender.append(append),
    async close() {
      appender.flush();
    },
  };
}

/**
 * Starts the writer thread: in a bundle of scripts/build-server.ts, the `.mjs` it writes beside the
 * bundle; from the sources (tests, `npm run` through tsx), the one sourceThread() bundles.
 */
function startWriterThread(data: WriterThreadData): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./sqlite-writer-thread.mjs', import.meta.url), { workerData: data });
  }
  // Plain JavaScript: it takes none of the process's flags (`--import tsx`).
  return new Worker(sourceThread(), { execArgv: [], workerData: data });
}

let bundledSources: URL | undefined;

/**
 * The TypeScript of the thread, bundled once per process by esbuild (what tsx compiles with) into
 * a data: URL, better-sqlite3 left out (it loads a native addon) and imported by its file URL. Each
 * thread loading the sources through tsx's require hook instead spent about 350 ms of a core, and
 * every test gateway starts one.
 */
function sourceThread(): URL {
  if (bundledSources) return bundledSources;
  const require = createRequire(import.meta.url);
  const esbuild = require('esbuild') as typeof import('esbuild');
  const sqlite = pathToFileURL(require.resolve('better-sqlite3')).href;
  const { outputFiles } = esbuild.buildSync({
    entryPoints: [fileURLToPath(new URL('./sqlite-writer-thread.ts', import.meta.url))],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    alias: { 'better-sqlite3': sqlite },
    external: [sqlite],
    logLevel: 'silent',
  });
  return (bundledSources = new URL(
    `data:text/javascript;base64,${Buffer.from(outputFiles[0]!.contents).toString('base64')}`,
  ));
}

/** The thread starts with the first append: a process that only reads (the projector) has none. */
function threadWriter({ path, synchronous }: SqliteWriterOptions): SqliteWriter {
  let worker: Worker | undefined;
  const pending = new Map<number, { resolve(result: CommittedAppend): void; reject(error: unknown): void }>();
  let nextId = 0;
  let stopped: Error | undefined;
  let closing: Promise<void> | undefined;
  /** Appends of the current synchronous run, sent as one message once it ends. */
  let outgoing: SerializedAppend[] = [];
  let outgoingFirstId = 0;

  function send(): void {
    const appends = outgoing;
    outgoing = [];
    if (appends.length > 0)
      worker?.postMessage({ kind: 'append', firstId: outgoingFirstId, appends } satisfies ToWriter);
  }

  function settle(id: number): { resolve(result: CommittedAppend): void; reject(error: unknown): void } | undefined {
    const waiting = pending.get(id);
    pending.delete(id);
    // Only appends waiting for their answer keep the process alive, as a pending write would.
    if (pending.size === 0 && !closing) worker?.unref();
    return waiting;
  }

  function stop(error: Error): void {
    stopped ??= error;
    for (const waiting of pending.values()) waiting.reject(stopped);
    pending.clear();
  }

  function start(): Worker {
    const started = startWriterThread({ path, synchronous });
    started.on('message', (message: FromWriter) => {
      message.outcomes.forEach((outcome, index) => {
        const waiting = settle(message.firstId + index);
        if (outcome.ok) waiting?.resolve(outcome.result);
        else waiting?.reject(fromWireError(outcome.error));
      });
    });
    started.on('error', (error) => {
      stop(new Error(`The event store's writer thread failed: ${error.message}`, { cause: error }));
    });
    started.on('exit', (code) => stop(new Error(`The event store's writer thread stopped (exit code ${code})`)));
    return started;
  }

  return {
    append(append) {
      if (stopped) return Promise.reject(stopped);
      if (closing) return Promise.reject(new Error('The event store is closed'));
      const thread = (worker ??= start());
      const id = nextId++;
      return new Promise<CommittedAppend>((resolve, reject) => {
        if (pending.size === 0) thread.ref();
        pending.set(id, { resolve, reject });
        if (outgoing.length === 0) {
          outgoingFirstId = id;
          queueMicrotask(send);
        }
        outgoing.push(append);
      });
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        if (!worker || stopped) {
          resolve();
          return;
        }
        worker.ref();
        worker.once('exit', () => resolve());
        send();
        worker.postMessage({ kind: 'close' } satisfies ToWriter);
      });
      return closing;
    },
  };
}
