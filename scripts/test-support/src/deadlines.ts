/**
 * How long a test may wait for something. A test never decides an outcome by the clock: it waits
 * for a condition (an answer, a log line, a message, an event), and the deadline only ends a wait
 * that is never going to end. So deadlines are generous, and scaled by `TEST_TIME_SCALE` (default
 * 1), how much slower than a calm machine this one may be: `npm run test:stress` raises it.
 */
export const TEST_TIME_SCALE = readScale(process.env.TEST_TIME_SCALE);

function readScale(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 1;
  const scale = Number(value);
  if (!Number.isFinite(scale) || scale < 1) {
    throw new Error(`TEST_TIME_SCALE must be a number of at least 1, not ${JSON.stringify(value)}`);
  }
  return scale;
}

/** `ms` on this machine: a deadline written for a calm machine, times TEST_TIME_SCALE. */
export function scaled(ms: number): number {
  return Math.ceil(ms * TEST_TIME_SCALE);
}

/** The deadline of one wait for a condition, unless the wait names its own. */
export const WAIT_MS = scaled(30_000);

/** The deadline of a server or process the tests start, to be ready. */
export const START_MS = scaled(90_000);

export interface WaitOptions {
  /** Defaults to WAIT_MS. */
  timeoutMs?: number;
  /** Between probes; defaults to 50 ms. */
  intervalMs?: number;
}

/** A wait whose condition did not hold by its deadline. */
export class WaitTimeout extends Error {
  constructor(
    what: string,
    timeoutMs: number,
    readonly last: unknown,
  ) {
    super(`${what}: not so after ${timeoutMs} ms; last seen: ${describe(last)}`);
    this.name = 'WaitTimeout';
  }
}

function describe(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text;
  } catch {
    return String(value);
  }
}

/**
 * Probes until `done` holds for the value, and resolves with it; once the deadline passes, rejects
 * with a WaitTimeout naming `what` and the last value. A probe that throws fails the wait at once.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | Promise<T>,
  done: (value: T) => boolean = Boolean,
  { timeoutMs = WAIT_MS, intervalMs = 50 }: WaitOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() >= deadline) throw new WaitTimeout(what, timeoutMs, value);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
