import { Button, Card, PasswordInput, Stack, Title } from '@mantine/core';
import { useInputState } from '@mantine/hooks';
import { useState } from 'react';
import { useConfirmPasswordReset } from '../api/confirm-password-reset';
import { authFailureMessage } from './auth-failure-message';
import { newPasswordProblem } from './auth-validation';
import { type FormMessage, FormMessageAlert } from './form-message';

interface PasswordResetConfirmProps {
  token: string;
  onDone: () => void;
}

/** The page the reset email links to (/signin#reset=<token>): choose the new password. */
export function PasswordResetConfirm({ token, onDone }: PasswordResetConfirmProps) {
  const [password, setPassword] = useInputState('');
  const [confirmPassword, setConfirmPassword] = useInputState('');
  const [message, setMessage] = useState<FormMessage>(null);
  const confirm = useConfirmPasswordReset();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const problem = newPasswordProblem(password, confirmPassword);
    if (problem) {
      setMessage({ kind: 'error', text: problem });
      return;
    }
    confirm.mutate(
      { token, password },
      {
        onSuccess: () =>
          setMessage({ kind: 'success', text: 'Your password has been changed. You can sign in with it now.' }),
        onError: (error) => setMessage({ kind: 'error', text: authFailureMessage(error) }),
      },
    );
  };

  return (
    <Card withBorder radius="md" padding="xl" maw={440} mx="auto" w="100%">
      <form onSubmit={submit} aria-label="Choose a new password">
        <Stack gap="md">
          <Title order={1} size="h2">
            Choose a New Password
          </Title>
          <FormMessageAlert message={message} />
          {message?.kind === 'success' ? (
            <Button onClick={onDone}>Go to Sign In</Button>
          ) : (
            <>
              <PasswordInput
                label="New Password"
                autoComplete="new-password"
                visibilityToggleFocusable
                value={password}
                onChange={setPassword}
              />
              <PasswordInput
                label="Confirm Password"
                autoComplete="new-password"
                visibilityToggleFocusable
                value={confirmPassword}
                onChange={setConfirmPassword}
              />
              <Button type="submit" disabled={confirm.isPending} fullWidth>
                Save Password
              </Button>
            </>
          )}
        </Stack>
      </form>
    </Card>
  );
}
