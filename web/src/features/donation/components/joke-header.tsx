import { Stack, Text, Title } from '@mantine/core';

interface JokeHeaderProps {
  charityName: string;
}

/** The punchline a scanner lands on: curiosity got them here, a donation is the way out. */
export function JokeHeader({ charityName }: JokeHeaderProps) {
  return (
    <Stack gap="xs" ta="center" py="lg">
      <Title order={1}>Plot twist: you just scanned a stranger's shirt.</Title>
      <Text size="lg" c="dimmed" maw={640} mx="auto">
        No menu, no Wi-Fi password, no prize. Just a chance to turn that curiosity into something good for {charityName}
        .
      </Text>
    </Stack>
  );
}
