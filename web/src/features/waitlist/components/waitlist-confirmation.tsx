import { Alert, Button, Card, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useConfirmWaitlistEntry } from '../api/confirm-waitlist-entry';

/** What /waitlist/confirm shows: the token sent once, then the outcome and the way back to the shop. */
export function WaitlistConfirmation({ token }: { token: string | null }) {
  const confirm = useConfirmWaitlistEntry();
  // React's strict mode runs effects twice in development; once is enough.
  const sent = useRef(false);
  useEffect(() => {
    if (token === null || sent.current) return;
    sent.current = true;
    confirm.mutate(token);
  }, [token, confirm]);

  return (
    <Card withBorder radius="md" padding="xl" maw={520} mx="auto" w="100%">
      <Stack gap="md">
        <Title order={1} size="h2">
          Confirm your place on the waitlist
        </Title>
        {token === null ? (
          <Alert color="yellow" variant="light" role="alert">
            This page needs the link from the email we sent you when you joined the waitlist. Open the link in that
            email.
          </Alert>
        ) : confirm.isSuccess ? (
          <Alert color="green" variant="light" role="status">
            Your place is confirmed: we will email you as soon as your {confirm.data.shirtName ?? 'shirt'} in size{' '}
            {confirm.data.size} is ready.
          </Alert>
        ) : confirm.isError ? (
          <Alert color="red" variant="light" role="alert">
            {confirm.error.message}
          </Alert>
        ) : (
          <Stack align="center" gap="xs" role="status">
            <Loader />
            <Text c="dimmed">Confirming your place...</Text>
          </Stack>
        )}
        <Button component={Link} to={paths.shop} variant="default">
          Back to Shop
        </Button>
      </Stack>
    </Card>
  );
}
