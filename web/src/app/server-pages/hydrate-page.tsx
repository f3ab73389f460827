import { type QueryClient } from '@tanstack/react-query';
import { type ReactNode, StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createPath, type Navigator, Router, type To } from 'react-router';
import { initAuth } from '@/lib/auth/auth-lifecycle';
import { PAGE_DATA_ID, ServerPageShell } from './page-shell';

/** The data the server wrote into its page for the browser to hydrate from (see entry-server.tsx). */
export function readPageData<T>(): T {
  return JSON.parse(document.getElementById(PAGE_DATA_ID)!.textContent) as T;
}

const href = (to: To) => (typeof to === 'string' ? to : createPath(to));

/**
 * The rest of the site is the app's: every link followed from a server-rendered page loads the
 * page it names, as a whole page, rather than into this page's router, which knows only itself.
 * Nor does the router touch the history when it starts, as BrowserRouter does (a replaceState):
 * Chromium cancels a navigation under way when it sees one, so a link tapped before the page was
 * live went nowhere once it became live.
 */
const wholePageNavigator: Navigator = {
  createHref: href,
  push: (to) => window.location.assign(href(to)),
  replace: (to) => window.location.replace(href(to)),
  go: (delta) => window.history.go(delta),
};

/**
 * Makes a server-rendered page live: the session starts with it (the layout's account links wait
 * for it), and the page hydrates in a transition, which yields to the browser every few
 * milliseconds instead of holding the main thread for its whole length, so the page the server
 * sent stays usable meanwhile.
 */
export function hydratePage(queryClient: QueryClient, page: ReactNode, path?: string): void {
  void initAuth();
  const { pathname, search, hash } = window.location;
  startTransition(() => {
    hydrateRoot(
      document.getElementById('root')!,
      <StrictMode>
        <Router location={{ pathname, search, hash }} navigator={wholePageNavigator}>
          <ServerPageShell queryClient={queryClient} path={path}>
            {page}
          </ServerPageShell>
        </Router>
      </StrictMode>,
    );
  });
}
