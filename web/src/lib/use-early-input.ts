import { useSyncExternalStore } from 'react';
import { type EarlyInput, earlyInput } from './early-input';

const nothingToWatch = () => () => {};

/**
 * What was typed and tapped before the page was live: null while hydrating (the server rendered
 * none of it), then what was kept, so the fields show it without a hydration mismatch.
 */
export function useEarlyInput(): EarlyInput | null {
  return useSyncExternalStore(nothingToWatch, earlyInput, () => null);
}
