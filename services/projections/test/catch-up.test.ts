import { describe, expect, it } from 'vitest';
import { waitWhileCatchingUp } from '../src/catch-up';
import type { ProjectionRunner, ProjectionStatus } from '../src/runner';

/** A runner that is `rounds` waits away from caught up, committing (or not) in each wait. */
function runner(
  name: string,
  rounds: number,
  commits: boolean,
): Pick<ProjectionRunner, 'waitUntilCaughtUp' | 'status'> {
  let left = rounds;
  let lastCommitAt: number | null = null;
  return {
    status: (): ProjectionStatus => ({ name, checkpoint: null, running: true, lastError: null, lastCommitAt }),
    async waitUntilCaughtUp() {
      if (left === 0) return;
      left -= 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (commits) lastCommitAt = Date.now();
      throw new Error(`${name} did not catch up`);
    },
  };
}

describe('waiting for the read models at boot', () => {
  it('waits through any number of stretches while a projection keeps committing', async () => {
    const waited: string[][] = [];
    await waitWhileCatchingUp([runner('fundraisers', 0, true), runner('funnel', 3, true)], {
      stallMs: 5,
      onWaiting: (behind) => waited.push(behind),
    });
    expect(waited).toEqual([['funnel'], ['funnel'], ['funnel']]);
  });

  it('gives up on a projection that committed nothing in a whole stretch', async () => {
    await expect(
      waitWhileCatchingUp([runner('fundraisers', 0, true), runner('funnel', 3, false)], { stallMs: 5 }),
    ).rejects.toThrow('Projections funnel did not commit anything in 5 ms while catching up');
  });
});
