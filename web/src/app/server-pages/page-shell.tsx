import { MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { Route, Routes } from 'react-router';
import { AppLayout } from '@/components/layout/app-layout';
import { AdminNavLink } from '@/features/admin/components/admin-nav-link';
import { scheduleCacheWarmUp } from '../cache-warm-up';
import { cssVariablesResolver, theme } from '../theme';

/**
 * What every server-rendered page (issue 16) sits in, on the server and in the browser alike: the
 * app's theme, query cache and layout, inside the router the caller gives (static on the server;
 * in the browser, one whose every navigation loads a whole page: hydrate-page.tsx). The cache
 * warm-up is the app's too (spec section 4): the lists it stores are there for the next page,
 * which the app shows.
 */
export function ServerPageShell({
  queryClient,
  path = '*',
  warmUp = true,
  children,
}: {
  queryClient: QueryClient;
  /** The page's route, for the parameters it reads (`/shirt/:shirtId`). */
  path?: string | undefined;
  /** False where the page's own script warms the cache (the landing's). */
  warmUp?: boolean | undefined;
  children: ReactNode;
}) {
  useEffect(() => (warmUp ? scheduleCacheWarmUp(queryClient) : undefined), [queryClient, warmUp]);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <Routes>
          <Route element={<AppLayout extraLinks={AdminNavLink} />}>
            <Route path={path} element={children} />
          </Route>
        </Routes>
      </QueryClientProvider>
    </MantineProvider>
  );
}

/**
 * What each island of a page whose content stays static (islands.tsx) sits in, in the browser: the
 * app's theme and the page's query cache, shared with the layout and the other islands. Its
 * Mantine provider writes no stylesheet: the layout's already did.
 */
export function IslandShell({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
      withCssVariables={false}
      withGlobalClasses={false}
    >
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
