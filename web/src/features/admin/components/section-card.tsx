import { Card, Title } from '@mantine/core';

/** A titled part of an admin page: a landmark named by its title. */
export function SectionCard({
  title,
  titleGap = 'md',
  children,
}: {
  title: string;
  titleGap?: 'sm' | 'md';
  children: React.ReactNode;
}) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title}>
      <Title order={2} size="h4" mb={titleGap}>
        {title}
      </Title>
      {children}
    </Card>
  );
}
