import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useInputState } from '@mantine/hooks';
import { useState } from 'react';
import { useProofOfWork } from '@/lib/proof-of-work/use-proof-of-work';
import { useRequestPasswordReset } from '../api/request-password-reset';
import { authFailureMessage } from './auth-failure-message';
import { type FormMessage, FormMessageAlert } from './form-message';

interface PasswordResetRequestProps {
  initialEmail: string;
  onBack: () => void;
}

/** "Forgot password?": asks for the email the reset link goes to. */
export function PasswordResetRequest({ initialEmail, onBack }: PasswordResetRequestProps) {
  const [email, setEmail] = useInputState(initialEmail);
  const [message, setMessage] = useState<FormMessage>(null);
  const proofOfWork = useProofOfWork();
  const reset = useRequestPasswordReset(proofOfWork.solve);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!email.trim()) {
      setMessage({ kind: 'error', text: 'Please enter your email!' });
      return;
    }
    reset.mutate(email.trim(), {
      onSuccess: () =>
        setMessage({
          kind: 'success',
          text: `If an account exists for ${email.trim()}, a link to reset its password is on its way.`,
        }),
      onError: (error) => setMessage({ kind: 'error', text: authFailureMessage(error) }),
    });
  };

  return (
    <form onSubmit={submit} aria-label="Reset password">
      <Stack gap="md">
        <Text size="sm">Enter your account's email and we'll send you a link to choose a new password.</Text>
        <FormMessageAlert message={message} />
        <TextInput label="Email" type="email" autoComplete="email" value={email} onChange={setEmail} />
        {proofOfWork.widget}
        <Button type="submit" disabled={reset.isPending} fullWidth>
          Send Reset Link
        </Button>
        <Anchor component="button" type="button" size="sm" onClick={onBack}>
          Back to Sign In
        </Anchor>
      </Stack>
    </form>
  );
}
