import type { Logger } from 'pino';

/** How often a gateway looks whether a day ended: the summaries go out within this after it settled. */
export const DAILY_SUMMARY_INTERVAL_MS = 5 * 60_000;

export interface DailySummaryJob {
  /** One pass now; resolves when it is done (failures are logged, and the next pass tries again). */
  run(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Every gateway runs the job: a pass at start, then one per interval. Which of them mails an
 * owner does not matter, since the outbox keeps one summary per owner and day.
 */
export function startDailySummaryJob({
  send,
  intervalMs,
  log,
}: {
  send: () => Promise<number>;
  intervalMs: number;
  log: Logger;
}): DailySummaryJob {
  let pass: Promise<void> = Promise.resolve();
  const run = () => {
    pass = send().then(
      (mailed) => {
        if (mailed > 0) log.info({ mailed }, 'daily summaries stored in the outbox');
      },
      (err: unknown) => log.warn({ err }, 'daily summaries: pass failed, tried again at the next one'),
    );
    return pass;
  };
  const timer = setInterval(() => void run(), intervalMs);
  // A pending pass must not keep a process alive that is otherwise done.
  timer.unref();
  void run();
  return {
    run,
    async stop() {
      clearInterval(timer);
      await pass;
    },
  };
}
