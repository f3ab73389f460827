import type { ProjectionRunner } from './runner';

/**
 * Resolves once every runner has caught up with the log, however long that takes while they move:
 * a first start on a long log (or one after its read models were deleted) projects it from
 * position 0, minutes per ten million events. Rejects only when none of them committed anything
 * for `stallMs`, the sign of a projection that is stuck rather than slow. `onWaiting` hears of
 * each stretch of `stallMs` that ended with some runner still behind.
 */
export async function waitWhileCatchingUp(
  runners: readonly Pick<ProjectionRunner, 'waitUntilCaughtUp' | 'status'>[],
  { stallMs, onWaiting }: { stallMs: number; onWaiting?: (behind: string[]) => void },
): Promise<void> {
  for (;;) {
    const startedAt = Date.now();
    const waits = runners.map((runner) =>
      runner.waitUntilCaughtUp(stallMs).then(
        () => true,
        () => false,
      ),
    );
    const done = await Promise.all(waits);
    if (done.every(Boolean)) return;
    const behind = runners.filter((_, index) => !done[index]);
    const moved = behind.some((runner) => (runner.status().lastCommitAt ?? 0) >= startedAt);
    if (!moved) {
      const names = behind.map((runner) => runner.status().name).join(', ');
      throw new Error(`Projections ${names} did not commit anything in ${stallMs} ms while catching up`);
    }
    onWaiting?.(behind.map((runner) => runner.status().name));
  }
}
