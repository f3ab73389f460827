import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { scheduleCacheWarmUp } from './cache-warm-up';
import { cssVariablesResolver, theme } from './theme';

interface AppProviderProps {
  queryClient: QueryClient;
  children: React.ReactNode;
}

export function AppProvider({ queryClient, children }: AppProviderProps) {
  useEffect(() => scheduleCacheWarmUp(queryClient), [queryClient]);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <Notifications position="top-right" limit={4} />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
