import type { LevelWithSilent, Logger } from 'pino';
import type { Registry } from 'prom-client';
import { PortInUseError } from './listen';
import { createLogger } from './logger';
import { createMetricsRegistry } from './metrics-registry';
import { keepFoldersPrivate, restrictNewFiles } from './private-folders';
import { stopOnSignals } from './shutdown';

/** What every process opens first: private files, its logger, its metrics registry. */
export interface ProcessBasics {
  log: Logger;
  metrics: Registry;
}

/**
 * A process's first step, however it is started (its main or a test): files it creates are
 * private, the folders it writes (unset ones skipped) are made private, then its logger (given, in
 * tests) and its own metrics registry.
 */
export async function openProcessBasics(options: {
  service: string;
  level: LevelWithSilent;
  logDir?: string | undefined;
  privateFolders: readonly (string | undefined)[];
  log?: Logger | undefined;
}): Promise<ProcessBasics> {
  restrictNewFiles();
  const log =
    options.log ?? (await createLogger({ service: options.service, level: options.level, logDir: options.logDir }));
  await keepFoldersPrivate(options.privateFolders, log);
  return { log, metrics: createMetricsRegistry(options.service) };
}

/** A process as `runProcess` runs it, once its infrastructure is open. */
export interface OpenProcess {
  log: Logger;
  /** Serves (its operations port and readiness included), starts its work and logs where it serves. */
  start(): Promise<void>;
  /** The ordered shutdown: stop taking work, finish what is in hand, then close what it used. */
  close(): Promise<void>;
}

/**
 * Every process's main: open, start, and on SIGTERM or SIGINT close in order within the
 * shutdown deadline. An error `isOperatorError` recognises (the log or a secret needs an operator,
 * whom a stack trace would not help), or a port in use, ends the start with its message and exit
 * code 2.
 */
export async function runProcess(
  service: string,
  open: () => Promise<OpenProcess>,
  {
    isOperatorError = (_error: unknown): _error is Error => false,
  }: { isOperatorError?: (error: unknown) => error is Error } = {},
): Promise<void> {
  // Both come before anything is served: exiting loses nothing, and the line is what helps.
  const stopForOperator = (error: unknown): never => {
    if (!(error instanceof PortInUseError) && !isOperatorError(error)) throw error;
    console.error(`${service}: ${error.message}`);
    process.exit(2);
  };
  const running = await open().catch(stopForOperator);
  // Signals are taken from the start: a gateway serves (and may be told to stop) while it still
  // warms its pages, and a stop then waits for the start to settle before closing in order.
  const started = running.start();
  stopOnSignals({
    log: running.log,
    stop: async () => {
      await started.catch(() => {});
      await running.close();
    },
  });
  await started.catch(stopForOperator);
}
