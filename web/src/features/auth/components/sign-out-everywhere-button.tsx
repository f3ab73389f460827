import { Button, Stack, Text } from '@mantine/core';
import { useSignOutEverywhere } from '../api/sign-out-everywhere';
import { authFailureMessage } from './auth-failure-message';

/** Signs the account out on every device, this one included; says why when it could not. */
export function SignOutEverywhereButton({ onSignedOut }: { onSignedOut: () => void }) {
  const everywhere = useSignOutEverywhere();
  return (
    <Stack gap={4}>
      <Button
        variant="default"
        onClick={() => everywhere.mutate(undefined, { onSuccess: onSignedOut })}
        loading={everywhere.isPending}
      >
        Sign out everywhere
      </Button>
      {everywhere.isError && (
        <Text size="sm" c="red" role="alert">
          You could not be signed out everywhere: {authFailureMessage(everywhere.error)}
        </Text>
      )}
    </Stack>
  );
}
