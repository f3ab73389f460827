import { useSyncExternalStore } from 'react';

const nothingToWatch = () => () => undefined;

/**
 * False while rendering on the server and while hydrating what it rendered; true from then on,
 * and from the start in a page the browser renders itself. For what only a browser can show.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    nothingToWatch,
    () => true,
    () => false,
  );
}
