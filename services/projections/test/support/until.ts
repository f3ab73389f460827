import { waitFor } from '@qrshirt/test-support';

/**
 * Polls `condition` every millisecond until it holds; rejects naming `what` once the tests'
 * deadline for one wait (WAIT_MS, scaled by TEST_TIME_SCALE) has passed.
 */
export async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  await waitFor(what, condition, Boolean, { intervalMs: 1 });
}
