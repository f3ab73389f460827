import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

/** A signed-in visitor of /admin who is not an admin. */
export function NotAllowed({ homePath }: { homePath: string }) {
  return (
    <Container size="sm" py={80}>
      <Stack align="center" ta="center">
        <Title order={1}>Not allowed</Title>
        <Text c="dimmed">The admin area is for administrators. Your account is not one of them.</Text>
        <Button component={Link} to={homePath}>
          Go Home
        </Button>
      </Stack>
    </Container>
  );
}
