import { Anchor, Card, Group, Image, Stack, Text, Title } from '@mantine/core';
import type { Charity } from '@qrshirt/contracts';
import { isWebLink } from '@/lib/web-link';

/** Spec: About This Cause, the charity's mission and a link to its website. */
export function AboutCauseCard({ charity }: { charity: Charity }) {
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="sm">
        <Group wrap="nowrap">
          {charity.logo_url && (
            <Image src={charity.logo_url} alt={`${charity.name} logo`} w={56} h={56} loading="lazy" />
          )}
          <Title order={2} size="h3">
            About This Cause
          </Title>
        </Group>
        <Text fw={600}>{charity.name}</Text>
        <Text>{charity.mission}</Text>
        {isWebLink(charity.website_url) && (
          <Anchor href={charity.website_url} target="_blank" rel="noopener noreferrer">
            Learn more about {charity.name}
          </Anchor>
        )}
      </Stack>
    </Card>
  );
}
