import { Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useInputState } from '@mantine/hooks';
import { useState } from 'react';
import type { SignedInUser } from '@/lib/auth/use-auth';
import { useCloseAccount } from '../api/close-account';
import { authFailureMessage } from './auth-failure-message';
import { type FormMessage, FormMessageAlert } from './form-message';

/**
 * Closing the account, confirmed: the password for an account that has one; without one the
 * server asks for a sign-in within the last 5 minutes instead.
 */
export function CloseAccountForm({
  user,
  onCancel,
  onClosed,
}: {
  user: SignedInUser;
  onCancel: () => void;
  onClosed: () => void;
}) {
  const [password, setPassword] = useInputState('');
  const [message, setMessage] = useState<FormMessage>(null);
  const close = useCloseAccount(user.uid);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    close.mutate(password, {
      onSuccess: onClosed,
      onError: (error) => setMessage({ kind: 'error', text: authFailureMessage(error) }),
    });
  };

  return (
    <form onSubmit={submit} aria-label="Close my account">
      <Stack gap="md">
        <FormMessageAlert message={message} />
        <Text size="sm">
          Your name, email and sign-in details are erased for good, and you are signed out everywhere. Your shirts keep
          working and keep the money and scans they collected, without your name.
        </Text>
        <PasswordInput
          label="Password"
          description="Signed in with Google or a phone? Leave it empty: it works within 5 minutes of signing in."
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Keep my account
          </Button>
          <Button type="submit" color="red" loading={close.isPending}>
            Close my account
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
