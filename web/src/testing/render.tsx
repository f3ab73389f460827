import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { cssVariablesResolver, theme } from '@/app/theme';

interface RenderOptions {
  /** Where the memory router starts, with optional location state. */
  at?: string | { pathname: string; hash?: string; search?: string; state?: unknown };
  /** Extra routes beside the one under test, e.g. where a redirect lands. */
  routes?: RouteObject[];
  /** The route pattern of the screen under test, so it can read its params. */
  path?: string;
}

/** One screen with the app's providers, in Mantine's test environment (no transitions). */
export function renderRoute(element: React.ReactNode, { at = '/', path = '*', routes = [] }: RenderOptions = {}) {
  return renderRoutes([{ path, element }, ...routes], at);
}

/** A small route tree (layouts, redirects) with the app's providers. */
export function renderRoutes(routes: RouteObject[], at: RenderOptions['at'] = '/') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter(routes, { initialEntries: [at] });
  const user = userEvent.setup();
  const view = render(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env="test">
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...view, user, router, queryClient };
}
