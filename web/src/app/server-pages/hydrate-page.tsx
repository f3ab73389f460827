import { type QueryClient } from '@tanstack/react-query';
import { type ReactNode, StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { initAuth } from '@/lib/auth/auth-lifecycle';
import { PAGE_DATA_ID, ServerPageShell } from './page-shell';

/** The data the server wrote into its page for the browser to hydrate from (see entry-server.tsx). */
export function readPageData<T>(): T {
  return JSON.parse(document.getElementById(PAGE_DATA_ID)!.textContent) as T;
}

/**
 * Makes a server-rendered page live: the session starts with it (the layout's account links wait
 * for it), and the page hydrates in a transition, which yields to the browser every few
 * milliseconds instead of holding the main thread for its whole length, so the page the server
 * sent stays usable meanwhile.
 */
export function hydratePage(queryClient: QueryClient, page: ReactNode, path?: string): void {
  void initAuth();
  startTransition(() => {
    hydrateRoot(
      document.getElementById('root')!,
      <StrictMode>
        <BrowserRouter>
          <ServerPageShell queryClient={queryClient} path={path}>
            {page}
          </ServerPageShell>
        </BrowserRouter>
      </StrictMode>,
    );
  });
}
