// Only the stylesheets of the components the landing shows, not all of Mantine's.
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/VisuallyHidden.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/AppShell.css';
import '@mantine/core/styles/Container.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/SimpleGrid.css';
import '@mantine/core/styles/Grid.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Title.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Burger.css';
import '@mantine/core/styles/Card.css';
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Image.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/Progress.css';
import '@mantine/core/styles/Skeleton.css';
import '@mantine/core/styles/Table.css';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { initAuth } from '@/lib/auth/auth-lifecycle';
import { createQueryClient } from '@/lib/query-client';
import { LANDING_DATA_ID, type LandingData, LandingPage, seedLandingQueries } from './landing-page';
import { SCAN_RECORDED } from './scan-recorded';

// The session starts with the page: the owner's card waits for it.
void initAuth();

const data = JSON.parse(document.getElementById(LANDING_DATA_ID)!.textContent) as LandingData;
const queryClient = createQueryClient();
seedLandingQueries(queryClient, data);
if (data.found) {
  // The owner's Total Scans, if already read, counts the scan the early script recorded.
  window.addEventListener(SCAN_RECORDED, () => {
    void queryClient.invalidateQueries({ queryKey: ['fundraiser-stats', data.fundraiser.id] });
  });
}

hydrateRoot(
  document.getElementById('root')!,
  <StrictMode>
    <BrowserRouter>
      <LandingPage queryClient={queryClient} data={data} />
    </BrowserRouter>
  </StrictMode>,
);
