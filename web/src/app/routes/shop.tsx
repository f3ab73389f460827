import { Container, Stack, Text, Title } from '@mantine/core';
import type { Shirt } from '@qrshirt/contracts';
import { InfoCards } from '@/components/info-cards';
import { ShirtCollection } from '@/features/catalog/components/shirt-collection';
import { track } from '@/lib/analytics';

const REASONS = [
  { title: 'Choose Your Impact', text: 'Pick the charity your shirt raises money for.' },
  { title: 'Premium Quality', text: 'Soft cotton and a print that survives the wash (and the jokes).' },
  { title: 'Surprise & Inspire', text: 'Every scan is a laugh for them and a donation for a good cause.' },
];

function openShirt(shirt: Shirt) {
  track({ type: 'shirt_clicked', shirt_id: shirt.id, shirt_name: shirt.name });
}

export function ShopRoute() {
  return (
    <Container size="xl" py="xl">
      <title>Shop · QR Shirts for Charity</title>
      <Stack gap="xl">
        <div>
          <Title order={1}>Our Shirts Collection</Title>
          <Text c="dimmed">
            Every shirt carries a QR code that sends curious strangers to a charity of your choice.
          </Text>
        </div>
        <ShirtCollection onOpenShirt={openShirt} />
        <section aria-labelledby="ready-title">
          <Title order={2} id="ready-title" ta="center" mt="xl" mb="lg">
            Ready to Make an Impact?
          </Title>
          <InfoCards items={REASONS} />
        </section>
      </Stack>
    </Container>
  );
}
