import { Anchor, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { env } from '@/config/env';
import { paths } from '@/config/paths';

function Column({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap={6}>
      <Title order={2} size="h4">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** Spec: social link, contact email, Get Your Shirt, Dashboard, Privacy Policy, Contact Us, © 2025. */
export function Footer() {
  const mailto = `mailto:${env.VITE_CONTACT_EMAIL}`;
  return (
    <footer>
      <Container size="xl" py="xl" mt="xl" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
          <Column title="QR Shirts for Charity">
            <Text size="sm" c="dimmed">
              Shirts with a QR code that turn a stranger's curiosity into a donation.
            </Text>
            <Anchor href={env.VITE_SOCIAL_URL} target="_blank" rel="noopener noreferrer" size="sm">
              Follow us on Instagram
            </Anchor>
            <Anchor href={mailto} size="sm">
              {env.VITE_CONTACT_EMAIL}
            </Anchor>
          </Column>
          <Column title="Explore">
            <Anchor component={Link} to={paths.shop} size="sm">
              Get Your Shirt
            </Anchor>
            <Anchor component={Link} to={paths.dashboard} size="sm">
              Dashboard
            </Anchor>
          </Column>
          <Column title="About">
            <Anchor component={Link} to={paths.privacy} size="sm">
              Privacy Policy
            </Anchor>
            <Anchor href={mailto} size="sm">
              Contact Us
            </Anchor>
          </Column>
        </SimpleGrid>
        <Group justify="center" mt="xl">
          <Text size="sm" c="dimmed">
            © 2025 QR Shirts for Charity. All rights reserved.
          </Text>
        </Group>
      </Container>
    </footer>
  );
}
