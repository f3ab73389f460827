import { Alert, AspectRatio, Button, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Shirt } from '@qrshirt/contracts';
import { useEffect } from 'react';
import { showErrorToast } from '@/lib/toast';
import { useShirts } from '../api/get-shirts';
import { ShirtCard } from './shirt-card';
import classes from './shirt-collection.module.css';

const GRID_COLUMNS = { base: 1, sm: 2, md: 3, lg: 4 };

interface ShirtCollectionProps {
  onOpenShirt: (shirt: Shirt) => void;
}

/** The shop's grid and its loading, error and empty states (spec: Shop). */
export function ShirtCollection({ onOpenShirt }: ShirtCollectionProps) {
  const shirts = useShirts();

  useEffect(() => {
    if (shirts.errorUpdatedAt > 0)
      showErrorToast('Error Loading Shirts', 'Failed to load shirts. Please refresh the page.');
  }, [shirts.errorUpdatedAt]);

  if (shirts.isPending || (shirts.isError && shirts.isFetching)) {
    // Laid out as the first card will be, so what follows the grid stays where it is when it comes.
    return (
      <SimpleGrid cols={GRID_COLUMNS} spacing="lg">
        <div>
          <AspectRatio ratio={1}>
            <Stack align="center" justify="center" gap="sm">
              <Loader aria-hidden />
              <Text>Loading shirts...</Text>
            </Stack>
          </AspectRatio>
          <div className={classes.cardText} />
        </div>
      </SimpleGrid>
    );
  }

  if (shirts.isError) {
    return (
      <Alert
        color="red"
        title={
          <Title order={2} size="h4">
            Error Loading Shirts
          </Title>
        }
        role="alert"
      >
        <Stack align="flex-start">
          <Text>Failed to load shirts. Please try again.</Text>
          <Button color="red.9" onClick={() => void shirts.refetch()}>
            Try Again
          </Button>
        </Stack>
      </Alert>
    );
  }

  if (shirts.data.length === 0) {
    return (
      <Stack align="center" py="xl" gap="xs">
        <Title order={2}>No Shirts Available</Title>
        <Text c="dimmed">No shirts are currently available. Please check back later!</Text>
      </Stack>
    );
  }

  return (
    <SimpleGrid cols={GRID_COLUMNS} spacing="lg">
      {shirts.data.map((shirt, index) => (
        <ShirtCard key={shirt.id} shirt={shirt} onOpen={onOpenShirt} first={index === 0} />
      ))}
    </SimpleGrid>
  );
}
