import { WAIT_MS, WaitTimeout, waitFor } from './deadlines';

/**
 * Probes until `done` holds for the value, or `timeoutMs` passes; resolves with the last value
 * either way, so the caller's assertion shows what it was.
 */
export async function eventually<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = WAIT_MS,
): Promise<T> {
  try {
    return await waitFor('eventually', probe, done, { timeoutMs, intervalMs: 200 });
  } catch (error) {
    if (error instanceof WaitTimeout) return error.last as T;
    throw error;
  }
}
