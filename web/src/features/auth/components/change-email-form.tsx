import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useInputState } from '@mantine/hooks';
import { useState } from 'react';
import type { SignedInUser } from '@/lib/auth/use-auth';
import { useRequestEmailChange } from '../api/change-email';
import { authFailureMessage } from './auth-failure-message';
import { type FormMessage, FormMessageAlert } from './form-message';

/**
 * Changing the account's address: the server mails a link to the new address, and the address
 * changes only once that link is followed (the profile sync never changes it).
 */
export function ChangeEmailForm({ user }: { user: SignedInUser }) {
  const [email, setEmail] = useInputState('');
  const [message, setMessage] = useState<FormMessage>(null);
  const change = useRequestEmailChange(user.uid);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!address) {
      setMessage({ kind: 'error', text: 'Please enter your new email address' });
      return;
    }
    change.mutate(address, {
      onSuccess: () => {
        setMessage({
          kind: 'success',
          text: `We sent a link to ${address}. Your address changes once you open it; until then it stays ${user.email ?? 'as it is'}.`,
        });
        setEmail('');
      },
      onError: (error) => setMessage({ kind: 'error', text: authFailureMessage(error) }),
    });
  };

  return (
    <form onSubmit={submit} aria-label="Change email">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {user.email ? `Your email address is ${user.email}.` : 'Your account has no email address yet.'} To change it,
          enter the new one: we mail it a link, and your address changes only once you open that link.
        </Text>
        <FormMessageAlert message={message} />
        <TextInput label="New email address" type="email" autoComplete="email" value={email} onChange={setEmail} />
        <Button type="submit" variant="default" loading={change.isPending}>
          Send link
        </Button>
      </Stack>
    </form>
  );
}
