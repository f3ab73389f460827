import { Alert, Button, Card, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useUnsubscribe } from '../api/unsubscribe';

/** What /unsubscribe shows: the link's token spent once, then whether the summaries stopped. */
export function UnsubscribeResult({ token }: { token: string | null }) {
  const unsubscribe = useUnsubscribe();
  // React's strict mode runs effects twice in development: one request is enough.
  const sent = useRef(false);
  useEffect(() => {
    if (token === null || sent.current) return;
    sent.current = true;
    unsubscribe.mutate(token);
  }, [token, unsubscribe]);

  return (
    <Card withBorder radius="md" padding="xl" maw={520} mx="auto" w="100%">
      <Stack gap="md">
        <Title order={1} size="h2">
          Daily summary mail
        </Title>
        {token === null ? (
          <Alert color="yellow" variant="light" role="alert">
            This page needs the link from a daily summary email. Open the link in that email, or turn the summary off in
            your profile.
          </Alert>
        ) : unsubscribe.isSuccess ? (
          <>
            <Alert color="green" variant="light" role="status">
              You will no longer receive daily summaries.
            </Alert>
            <Text c="dimmed">Changed your mind? Turn them on again in your profile, on your dashboard.</Text>
            <Button component={Link} to={paths.dashboard} variant="default">
              Go to your dashboard
            </Button>
          </>
        ) : unsubscribe.isError ? (
          <Alert color="red" variant="light" role="alert">
            {unsubscribe.error.message}
          </Alert>
        ) : (
          <Stack align="center" gap="xs" role="status">
            <Loader />
            <Text c="dimmed">Stopping your daily summaries...</Text>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
