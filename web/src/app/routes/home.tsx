import { Button, Card, Container, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@/config/paths';

const STEPS = [
  {
    title: 'They Get Curious',
    text: 'Someone spots the QR code on your shirt and, like everyone, cannot resist scanning it.',
  },
  {
    title: 'Plot Twist',
    text: 'Instead of a menu or a rickroll, they land on a funny page about a cause you care about.',
  },
  {
    title: 'They Donate',
    text: 'Laughing, they chip in a few dollars for the charity behind your shirt. You just walked.',
  },
];

/** Spec: fixed figures, not live data. */
const IMPACT = [
  { value: '$12,450', label: 'Raised for charity' },
  { value: '3,200+', label: 'QR code scans' },
  { value: '450', label: 'Shirts in the wild' },
  { value: '6', label: 'Charities supported' },
];

export function HomeRoute() {
  return (
    <>
      <title>QR Shirts for Charity</title>
      <section aria-labelledby="hero-title" style={{ background: 'var(--mantine-color-blue-0)' }}>
        <Container size="lg" py={{ base: 48, sm: 96 }}>
          <Stack align="center" ta="center" gap="lg">
            <Title order={1} id="hero-title" fz={{ base: 36, sm: 56 }} lh={1.1}>
              Wear a QR code. Start a conversation. Fund a cause.
            </Title>
            <Text size="xl" maw={640}>
              Our shirts carry a QR code nobody can resist. Every scan lands on a joke, and every joke ends in a
              donation to a charity you choose.
            </Text>
            <Button component={Link} to={paths.shop} size="lg">
              Get Your Shirt
            </Button>
          </Stack>
        </Container>
      </section>

      <Container size="lg" py={64} component="section" aria-labelledby="how-title">
        <Title order={2} id="how-title" ta="center" mb="xl">
          How It Works
        </Title>
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
          {STEPS.map((step, index) => (
            <Card key={step.title} withBorder radius="md" padding="xl">
              <ThemeIcon size={56} radius="xl" variant="light" color="blue" mb="md" aria-hidden>
                <Text fz={24} fw={800}>
                  {index + 1}
                </Text>
              </ThemeIcon>
              <Title order={3} size="h4" mb="xs">
                {step.title}
              </Title>
              <Text c="dimmed">{step.text}</Text>
            </Card>
          ))}
        </SimpleGrid>
      </Container>

      <section aria-labelledby="impact-title" style={{ background: 'var(--mantine-color-gray-0)' }}>
        <Container size="lg" py={64}>
          <Title order={2} id="impact-title" ta="center" mb="xl">
            Our Impact So Far
          </Title>
          <SimpleGrid cols={{ base: 2, md: 4 }} spacing="lg">
            {IMPACT.map((figure) => (
              <Stack key={figure.label} gap={0} align="center">
                <Text fz={36} fw={800} c="blue.9">
                  {figure.value}
                </Text>
                <Text c="dimmed">{figure.label}</Text>
              </Stack>
            ))}
          </SimpleGrid>
        </Container>
      </section>
    </>
  );
}
