import { Button, Card, Center, Container, Grid, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { InfoCards } from '@/components/info-cards';
import { paths } from '@/config/paths';
import { useCharities } from '@/features/catalog/api/get-charities';
import { useShirt } from '@/features/catalog/api/get-shirt';
import { ShirtCarousel } from '@/features/catalog/components/shirt-carousel';
import { ShirtFeatures } from '@/features/catalog/components/shirt-features';
import { WaitlistForm } from '@/features/waitlist/components/waitlist-form';
import { showErrorToast } from '@/lib/toast';

const NEXT_STEPS = [
  { title: 'Get Notified', text: "We'll email you the moment your shirt is ready to order." },
  { title: 'Reserved Spot', text: 'Your size and your charity are saved for you.' },
  { title: 'Surprise & Inspire', text: 'Wear it, get scanned, and watch the donations come in.' },
];

function ShirtNotFound({ message }: { message: string }) {
  return (
    <Container size="sm" py={80}>
      <Stack align="center" ta="center">
        <Title order={1}>Shirt Not Found</Title>
        <Text c="dimmed">{message}</Text>
        <Button component={Link} to={paths.shop}>
          Back to Shop
        </Button>
      </Stack>
    </Container>
  );
}

export function ShirtRoute() {
  const { shirtId } = useParams();
  const shirt = useShirt(shirtId);
  const charities = useCharities();

  // Spec sections 2 and 8: a shirt that does not exist fails to load like any other, with the same words.
  useEffect(() => {
    if (shirt.errorUpdatedAt > 0) {
      showErrorToast('Error Loading Shirt', 'Failed to load shirt data. Please refresh the page.');
    }
  }, [shirt.errorUpdatedAt]);

  useEffect(() => {
    if (charities.errorUpdatedAt > 0) {
      showErrorToast('Error Loading Charities', 'Failed to load charities. Some features may not work.');
    }
  }, [charities.errorUpdatedAt]);

  if (!shirtId) return <ShirtNotFound message="Shirt ID not provided" />;
  if (shirt.isPending) {
    return (
      <Center py={80}>
        <Stack align="center" gap="sm">
          <Loader aria-hidden />
          <Text>Loading shirt details...</Text>
        </Stack>
      </Center>
    );
  }
  if (shirt.isError) {
    return <ShirtNotFound message="Failed to load shirt. Please try again." />;
  }

  const { data } = shirt;
  return (
    <Container size="xl" py="xl">
      <title>{`${data.name} · QR Shirts for Charity`}</title>
      <Stack gap="xl">
        <div>
          <Button component={Link} to={paths.shop} variant="subtle" px={0}>
            ← Back to Shop
          </Button>
          <Title order={1} mt="xs">
            Join the Waitlist
          </Title>
        </div>
        <Grid gap="xl">
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Stack gap="lg">
              <ShirtCarousel images={data.images} shirtName={data.name} />
              <Card withBorder radius="md" padding="lg">
                <Title order={2} size="h4" mb="sm">
                  What you get
                </Title>
                <ShirtFeatures />
              </Card>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Stack gap="lg">
              <div>
                <Title order={2}>{data.name}</Title>
                <Text mt="xs">{data.description}</Text>
                <Text mt="sm" fz={28} fw={800}>
                  ${data.price.toFixed(2)}{' '}
                  <Text span size="sm" c="dimmed" fw={400}>
                    (expected price)
                  </Text>
                </Text>
              </div>
              <WaitlistForm
                shirt={data}
                charities={charities.data}
                charitiesLoading={charities.isPending && charities.isFetching}
              />
            </Stack>
          </Grid.Col>
        </Grid>
        <section aria-labelledby="next-title">
          <Title order={2} id="next-title" ta="center" mb="lg">
            What Happens Next?
          </Title>
          <InfoCards items={NEXT_STEPS} />
        </section>
      </Stack>
    </Container>
  );
}
