/*
 * What makes the server-rendered homepage live: loaded by boot.ts once the page has painted, as
 * entry-client.tsx is for the landing. The homepage reads no data: there is nothing to seed.
 */
import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { initAuth } from '@/lib/auth/auth-lifecycle';
import { createQueryClient } from '@/lib/query-client';
import { HomeRoute } from '../routes/home';
import { ServerPageShell } from './page-shell';

void initAuth();

startTransition(() => {
  hydrateRoot(
    document.getElementById('root')!,
    <StrictMode>
      <BrowserRouter>
        <ServerPageShell queryClient={createQueryClient()}>
          <HomeRoute />
        </ServerPageShell>
      </BrowserRouter>
    </StrictMode>,
  );
});
