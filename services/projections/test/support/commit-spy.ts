import type { ReadModelStore } from '@qrshirt/core';

/**
 * Wraps a store client to watch its commits: `rejected` counts those the checkpoint guard
 * turned away (proof that two writers really raced), and `delayMs` makes a writer slower than
 * its rival, so it is the one that falls behind and loses. `hold` stops every commit where it is
 * until the function it returns is called: a writer caught mid-commit by a rival, whatever the
 * machine's speed.
 */
export function spyOnCommits(store: ReadModelStore, delayMs = 0) {
  let rejected = 0;
  let gate: Promise<void> | undefined;
  const spied: ReadModelStore = {
    ...store,
    projection(name, version) {
      const projection = store.projection(name, version);
      return {
        ...projection,
        async commit(from, to, ops) {
          if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
          await gate;
          const applied = await projection.commit(from, to, ops);
          if (!applied) rejected += 1;
          return applied;
        },
      };
    },
  };
  return {
    store: spied,
    rejected: () => rejected,
    hold(): () => void {
      let release = () => {};
      gate = new Promise((resolve) => {
        release = () => {
          gate = undefined;
          resolve();
        };
      });
      return release;
    },
  };
}
