import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { paths } from '@/config/paths';

export function NotFoundRoute() {
  const { pathname } = useLocation();

  // Spec: the unknown path is logged. A warning, not an error: a mistyped address is no fault of the page.
  useEffect(() => {
    console.warn('Page not found:', pathname);
  }, [pathname]);

  return (
    <Container size="sm" py={80}>
      <title>Page Not Found · QR Shirts for Charity</title>
      <Stack align="center" ta="center" gap="md">
        <Text fz={64} fw={800} c="blue.9" aria-hidden>
          404
        </Text>
        <Title order={1}>Page Not Found</Title>
        <Text c="dimmed">
          Looking for a fundraiser? Scan the QR code on the shirt again: it knows exactly where to go.
        </Text>
        <Button component={Link} to={paths.home}>
          Go Home
        </Button>
      </Stack>
    </Container>
  );
}
