import { Alert, Button, Card, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useRemoveWaitlistEntry } from '../api/remove-waitlist-entry';

/**
 * What /waitlist/remove shows. Unlike the confirmation page it waits for a click: removing erases
 * the person's data for good, and a mail client or scanner that opens links on its own must not
 * do it for them.
 */
export function WaitlistRemoval({ token }: { token: string | null }) {
  const remove = useRemoveWaitlistEntry();

  return (
    <Card withBorder radius="md" padding="xl" maw={520} mx="auto" w="100%">
      <Stack gap="md">
        <Title order={1} size="h2">
          Remove me from the waitlist
        </Title>
        {token === null ? (
          <Alert color="yellow" variant="light" role="alert">
            This page needs the removal link from one of our waitlist emails. Open the link in that email.
          </Alert>
        ) : remove.isSuccess ? (
          <Alert color="green" variant="light" role="status">
            You are off the waitlist, and the name and email address you gave us are erased. We will not email you about
            this shirt again.
          </Alert>
        ) : (
          <>
            <Text>
              This takes your place off the waitlist and erases the name and email address you gave us. It cannot be
              undone: to get the shirt later, join the waitlist again.
            </Text>
            {remove.isError && (
              <Alert color="red" variant="light" role="alert">
                {remove.error.message}
              </Alert>
            )}
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate(token)}>
              Remove me and erase my data
            </Button>
          </>
        )}
        <Button component={Link} to={paths.shop} variant="default">
          Back to Shop
        </Button>
      </Stack>
    </Card>
  );
}
