/** Wakes waiting subscriptions when this process commits, so they need not wait for a poll tick. */
export interface ChangeSignal {
  notify(this: void): void;
  /** Resolves on the next notify(), after timeoutMs, or when `wake` is called, whichever is first. */
  next(timeoutMs: number): { promise: Promise<void>; wake(): void };
}

export function createChangeSignal(): ChangeSignal {
  const waiters = new Set<() => void>();
  return {
    notify() {
      for (const wake of waiters) wake();
    },
    next(timeoutMs) {
      let wake = (): void => {};
      const promise = new Promise<void>((resolve) => {
        wake = () => {
          clearTimeout(timer);
          waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, timeoutMs);
        waiters.add(wake);
      });
      return { promise, wake };
    },
  };
}
