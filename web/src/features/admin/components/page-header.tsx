import { Group, Text, Title } from '@mantine/core';

/** Each admin page's title, what it is for, and its main action. */
export function PageHeader({ title, note, action }: { title: string; note: string; action?: React.ReactNode }) {
  return (
    <Group justify="space-between" align="flex-end" mb="lg">
      <div>
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text c="dimmed">{note}</Text>
      </div>
      {action}
    </Group>
  );
}
