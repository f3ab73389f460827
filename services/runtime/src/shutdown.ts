/**
 * Docker sends SIGKILL 10 s after SIGTERM by default: a process that has not finished by this
 * deadline exits anyway (code 1), so the stop is never decided by the SIGKILL.
 */
export const SHUTDOWN_DEADLINE_MS = 9_000;

export interface ShutdownLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * Runs `stop` on the first SIGTERM or SIGINT, then exits 0 (1 if it failed or overran the
 * deadline). Later signals are ignored: Ctrl+C reaches a whole process group and a supervisor
 * may send SIGTERM too, and neither may cut a drain short.
 */
export function stopOnSignals(options: { log: ShutdownLog; stop: () => Promise<void>; deadlineMs?: number }): void {
  const { log, stop, deadlineMs = SHUTDOWN_DEADLINE_MS } = options;
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const startedAt = Date.now();
    log.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      log.error({ deadlineMs }, 'shutdown did not finish in time; exiting anyway');
      process.exit(1);
    }, deadlineMs);
    deadline.unref();
    stop().then(
      () => {
        log.info({ ms: Date.now() - startedAt }, 'shut down');
        process.exit(0);
      },
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
