import { Card, Text, Title } from '@mantine/core';

/** Spec: the QR page's closing thank-you, for scanning at all. */
export function ThankYouCard() {
  return (
    <Card withBorder radius="md" padding="lg" bg="blue.0">
      <Title order={2} size="h3" mb="xs">
        Thanks for being curious! 🙌
      </Title>
      <Text>
        Whether you donate today or just tell a friend about the shirt with the suspicious QR code, you are part of the
        joke and part of the good it does.
      </Text>
    </Card>
  );
}
