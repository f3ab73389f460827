import { Container, Stack, Text, Title } from '@mantine/core';
import { useRouteError } from 'react-router';
import { ReloadButton } from '@/components/reload-button';

/** A screen that crashed (or its code failed to download after a deploy): offer a fresh load. */
export function RouteError() {
  const error = useRouteError();
  console.error('A page failed to render', error);
  return (
    <Container size="sm" py={80}>
      <Stack align="center" ta="center">
        <Title order={1}>Something went wrong</Title>
        <Text c="dimmed">This page could not be shown. Reloading usually fixes it.</Text>
        <ReloadButton />
      </Stack>
    </Container>
  );
}
