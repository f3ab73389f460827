import type { ReadModelStore } from '@qrshirt/core';

/**
 * Wraps a store client to watch its commits: `rejected` counts those the checkpoint guard
 * turned away (proof that two writers really raced), and `delayMs` makes a writer slower than
 * its rival, so it is the one that falls behind and loses. `hold` stops the commits it is given
 * (every one by default) where they are until the function it returns is called: a writer caught
 * mid-commit by a rival, whatever the machine's speed; `held` counts the commits it stopped.
 */
export function spyOnCommits(store: ReadModelStore, delayMs = 0) {
  let rejected = 0;
  let held = 0;
  let gate: { opened: Promise<void>; holds: (to: number) => boolean } | undefined;
  const spied: ReadModelStore = {
    ...store,
    projection(name, version) {
      const projection = store.projection(name, version);
      return {
        ...projection,
        async commit(from, to, ops) {
          if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
          if (gate?.holds(to)) {
            held += 1;
            await gate.opened;
          }
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
    held: () => held,
    /** Stops each commit `holds` accepts (given the checkpoint it moves to) until the returned function is called. */
    hold(holds: (to: number) => boolean = () => true): () => void {
      let release = () => {};
      const opened = new Promise<void>((resolve) => {
        release = () => {
          gate = undefined;
          resolve();
        };
      });
      gate = { opened, holds };
      return release;
    },
  };
}
