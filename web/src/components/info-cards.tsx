import { Card, SimpleGrid, Text, Title } from '@mantine/core';

/** Short points side by side, each a title and a line: the shop's reasons, a shirt's next steps. */
export function InfoCards({ items }: { items: { title: string; text: string }[] }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }}>
      {items.map((item) => (
        <Card key={item.title} withBorder radius="md" padding="lg">
          <Title order={3} size="h4" mb={4}>
            {item.title}
          </Title>
          <Text c="dimmed">{item.text}</Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}
