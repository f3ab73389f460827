import { Alert, Button, Card, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useVerifyEmail, type VerificationLink } from '../api/verify-email';
import { ResendVerificationButton } from './resend-verification-button';

interface EmailVerificationProps {
  /** From the link's fragment; null when the page was opened without one. */
  link: VerificationLink | null;
  signedIn: boolean;
}

/** What /verify-email shows: the token spent once, then the outcome and the way on. */
export function EmailVerification({ link, signedIn }: EmailVerificationProps) {
  const verify = useVerifyEmail();
  // React's strict mode runs effects twice in development; the token works once.
  const sent = useRef(false);
  useEffect(() => {
    if (link === null || sent.current) return;
    sent.current = true;
    verify.mutate(link);
  }, [link, verify]);
  const changing = link !== null && link.email !== null;

  const wayOn = signedIn ? (
    <ResendVerificationButton />
  ) : (
    <Button component={Link} to={paths.signIn} variant="default">
      Sign in to get a new link
    </Button>
  );

  return (
    <Card withBorder radius="md" padding="xl" maw={520} mx="auto" w="100%">
      <Stack gap="md">
        <Title order={1} size="h2">
          {changing ? 'Change your email address' : 'Verify your email address'}
        </Title>
        {link === null ? (
          <>
            <Alert color="yellow" variant="light" role="alert">
              This page needs the link from the email we sent you. Open the link in that email, or ask for a new one.
            </Alert>
            {wayOn}
          </>
        ) : verify.isSuccess ? (
          <>
            <Alert color="green" variant="light" role="status">
              {verify.data.changed
                ? `Your email address was changed to ${verify.data.email}: sign in with it from now on.`
                : `Your email address is verified: ${verify.data.email}`}
            </Alert>
            <Button component={Link} to={paths.dashboard}>
              Go to your dashboard
            </Button>
          </>
        ) : verify.isError ? (
          <>
            <Alert color="red" variant="light" role="alert">
              {verify.error.message}
            </Alert>
            {wayOn}
          </>
        ) : (
          <Stack align="center" gap="xs" role="status">
            <Loader />
            <Text c="dimmed">{changing ? 'Changing your email address...' : 'Verifying your email address...'}</Text>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
