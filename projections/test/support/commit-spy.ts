import type { ReadModelStore } from '@qrshirt/core';

/**
 * Wraps a store client to watch its commits: `rejected` counts those the checkpoint guard
 * turned away (proof that two writers really raced), and `delayMs` makes a writer slower than
 * its rival, so it is the one that falls behind and loses.
 */
export function spyOnCommits(store: ReadModelStore, delayMs = 0) {
  let rejected = 0;
  const spied: ReadModelStore = {
    ...store,
    projection(name, version) {
      const projection = store.projection(name, version);
      return {
        ...projection,
        async commit(from, to, ops) {
          if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
          const applied = await projection.commit(from, to, ops);
          if (!applied) rejected += 1;
          return applied;
        },
      };
    },
  };
  return { store: spied, rejected: () => rejected };
}
