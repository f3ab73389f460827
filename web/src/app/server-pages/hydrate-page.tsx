import { type QueryClient } from '@tanstack/react-query';
import { type ComponentType, type ReactNode, StrictMode, startTransition, useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createPath, type Navigator, Router, type To } from 'react-router';
import { initAuth } from '@/lib/auth/auth-lifecycle';
import { STATIC_CONTENT_ID, StaticContent } from './islands';
import { IslandShell, ServerPageShell } from './page-shell';

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
export function hydratePage(
  queryClient: QueryClient,
  page: ReactNode,
  { path, warmUp }: { path?: string; warmUp?: boolean } = {},
): void {
  void initAuth();
  const { pathname, search, hash } = window.location;
  startTransition(() => {
    hydrateRoot(
      document.getElementById('root')!,
      <StrictMode>
        <Router location={{ pathname, search, hash }} navigator={wholePageNavigator}>
          <ServerPageShell queryClient={queryClient} path={path} warmUp={warmUp}>
            {page}
          </ServerPageShell>
        </Router>
      </StrictMode>,
    );
  });
}

/** Waits for a task of its own, so that a tap can be answered between two pieces of work. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Calls `run` once what it is rendered with is live: after React's first commit of it. */
function WhenLive({ run }: { run: () => void }) {
  useEffect(run, [run]);
  return null;
}

/**
 * Makes a page live whose content the server left static but for its islands (islands.tsx): the
 * layout around the content hydrates as hydratePage's does, with the content as it is, then each
 * island `components` names as a root of its own, from the props its element holds. An island it
 * does not name stays as it is: the landing's script makes the donation card live without React.
 * Every root shares the page's query cache and the session, and starts in a task of its own: a
 * phone is never held for the sum of them. Settles once the layout is live.
 */
export async function hydrateIslands(
  queryClient: QueryClient,
  // Each island's props come from JSON, whatever its component's type says they are.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  components: Record<string, ComponentType<any>>,
  { warmUp }: { warmUp?: boolean } = {},
): Promise<void> {
  const content = document.getElementById(STATIC_CONTENT_ID)!;
  // Read before any island changes what it holds: the layout's root keeps this HTML as it was.
  const html = content.innerHTML;
  const islands = [...content.querySelectorAll<HTMLElement>('[data-island]')];
  await nextTask();
  const layoutLive = new Promise<void>((resolve) => {
    hydratePage(
      queryClient,
      <>
        <StaticContent html={html} />
        <WhenLive run={resolve} />
      </>,
      { warmUp },
    );
  });
  for (const island of islands) {
    const name = island.dataset.island!;
    const Island = components[name];
    if (!Island) continue;
    const props = JSON.parse(island.dataset.props!) as object;
    await nextTask();
    startTransition(() => {
      hydrateRoot(
        island,
        <StrictMode>
          <IslandShell queryClient={queryClient}>
            <Island {...props} />
          </IslandShell>
        </StrictMode>,
        // Each root counts its own ids from the start: the prefix keeps two islands' apart.
        { identifierPrefix: `${name}-` },
      );
    });
  }
  await layoutLive;
}
