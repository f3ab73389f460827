import { Anchor, Button, Divider, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useInputState } from '@mantine/hooks';
import { useState } from 'react';
import { useGoogleSignIn } from '../api/google-sign-in';
import { useSignIn } from '../api/sign-in';
import { authFailureMessage } from './auth-failure-message';
import { signInProblem } from './auth-validation';
import { type FormMessage, FormMessageAlert } from './form-message';
import { PasswordResetRequest } from './password-reset-request';

interface SignInFormProps {
  onSignedIn: () => void;
  /** Called just before the browser leaves for Google. */
  onLeavingForGoogle: () => void;
  /** Prefilled: the address a claim link was mailed to. */
  initialEmail?: string;
}

export function SignInForm({ onSignedIn, onLeavingForGoogle, initialEmail = '' }: SignInFormProps) {
  const [email, setEmail] = useInputState(initialEmail);
  const [password, setPassword] = useInputState('');
  const [message, setMessage] = useState<FormMessage>(null);
  const [resetting, setResetting] = useState(false);
  const signIn = useSignIn();
  const google = useGoogleSignIn();
  const busy = signIn.isPending || google.isPending || message?.kind === 'success';

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const problem = signInProblem({ email, password });
    if (problem) {
      setMessage({ kind: 'error', text: problem });
      return;
    }
    setMessage(null);
    signIn.mutate(
      { email: email.trim(), password },
      {
        onSuccess: () => {
          setMessage({ kind: 'success', text: 'Successfully signed in!' });
          onSignedIn();
        },
        onError: (error) => setMessage({ kind: 'error', text: authFailureMessage(error) }),
      },
    );
  };

  const continueWithGoogle = () => {
    setMessage(null);
    onLeavingForGoogle();
    google.mutate(undefined, { onError: (error) => setMessage({ kind: 'error', text: authFailureMessage(error) }) });
  };

  if (resetting) return <PasswordResetRequest initialEmail={email} onBack={() => setResetting(false)} />;

  return (
    <form onSubmit={submit} aria-label="Sign in">
      <Stack gap="md">
        <FormMessageAlert message={message} />
        <TextInput label="Email" type="email" autoComplete="email" value={email} onChange={setEmail} />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          visibilityToggleFocusable
        />
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => setResetting(true)}
          style={{ alignSelf: 'flex-end' }}
        >
          Forgot password?
        </Anchor>
        <Button type="submit" disabled={busy} fullWidth>
          Sign In
        </Button>
        <Divider label="or" labelPosition="center" />
        <Button variant="default" onClick={continueWithGoogle} disabled={busy} fullWidth>
          Continue with Google
        </Button>
      </Stack>
    </form>
  );
}
