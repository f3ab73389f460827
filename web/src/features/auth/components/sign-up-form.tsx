import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useProofOfWork } from '@/lib/proof-of-work/use-proof-of-work';
import { useSignUp } from '../api/sign-up';
import { authFailureMessage } from './auth-failure-message';
import { signUpProblem, type SignUpValues } from './auth-validation';
import { type FormMessage, FormMessageAlert } from './form-message';

const EMPTY: SignUpValues = { displayName: '', email: '', password: '', confirmPassword: '' };

export function SignUpForm({ onSignedIn, initialEmail = '' }: { onSignedIn: () => void; initialEmail?: string }) {
  const [values, setValues] = useState({ ...EMPTY, email: initialEmail });
  const [message, setMessage] = useState<FormMessage>(null);
  const proofOfWork = useProofOfWork();
  const signUp = useSignUp(proofOfWork.solve);
  const busy = signUp.isPending || message?.kind === 'success';
  const field = (name: keyof SignUpValues) => ({
    value: values[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      const { value } = event.currentTarget;
      setValues((current) => ({ ...current, [name]: value }));
    },
  });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const problem = signUpProblem(values);
    if (problem) {
      setMessage({ kind: 'error', text: problem });
      return;
    }
    setMessage(null);
    signUp.mutate(
      { displayName: values.displayName.trim(), email: values.email.trim(), password: values.password },
      {
        onSuccess: () => {
          setMessage({ kind: 'success', text: 'Account created successfully!' });
          onSignedIn();
        },
        onError: (error) => setMessage({ kind: 'error', text: authFailureMessage(error) }),
      },
    );
  };

  return (
    <form onSubmit={submit} aria-label="Sign up">
      <Stack gap="md">
        <FormMessageAlert message={message} />
        <TextInput label="Display Name" autoComplete="nickname" {...field('displayName')} />
        <TextInput label="Email" type="email" autoComplete="email" {...field('email')} />
        <PasswordInput label="Password" autoComplete="new-password" visibilityToggleFocusable {...field('password')} />
        <PasswordInput
          label="Confirm Password"
          autoComplete="new-password"
          visibilityToggleFocusable
          {...field('confirmPassword')}
        />
        {proofOfWork.widget}
        <Button type="submit" disabled={busy} fullWidth>
          Create Account
        </Button>
      </Stack>
    </form>
  );
}
