import { notifications } from '@mantine/notifications';
import { act, cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, inject, vi } from 'vitest';
import { discardQueuedAnalytics } from '@/lib/analytics';
import { resetAuthState, updateAuthState } from '@/lib/auth/session-store';
import { TEST_PROOF_OF_WORK } from './proof-of-work';

declare module 'vitest' {
  export interface ProvidedContext {
    /** How long findBy and waitFor wait: vitest.config.ts scales it by TEST_TIME_SCALE. */
    waitMs: number;
  }
}

// findBy and waitFor give up after 1 s by default, which four test files at a time on two cores
// (CI) can exceed; a screen that never comes still fails, at the deadline.
configure({ asyncUtilTimeout: inject('waitMs') });

vi.mock('@/lib/proof-of-work/altcha-widget', () => ({ solveInWidget: async () => TEST_PROOF_OF_WORK }));

// What Mantine needs from a browser that jsdom does not provide (Mantine's own testing guide).
const getComputedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => getComputedStyle(element);
window.HTMLElement.prototype.scrollIntoView = () => {};
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
window.ResizeObserver = class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
window.scrollTo = () => {};

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAuthState();
  // Most tests start as a visitor whose session has settled; auth tests sign in explicitly.
  updateAuthState({ status: 'ready' });
});

afterEach(() => {
  // Toasts live in a module-wide store: without this, one test's toasts queue up behind another's.
  act(() => {
    notifications.clean();
    notifications.cleanQueue();
  });
  cleanup();
  discardQueuedAnalytics();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
