import { Button, Stack, TextInput } from '@mantine/core';
import { useInputState } from '@mantine/hooks';
import { useState } from 'react';
import type { SignedInUser } from '@/lib/auth/use-auth';
import { useUpdateProfile } from '../api/update-profile';
import { authFailureMessage } from './auth-failure-message';
import { type FormMessage, FormMessageAlert } from './form-message';

/** The profile capability of the spec: display name and photo. */
export function ProfileForm({ user }: { user: SignedInUser }) {
  const [displayName, setDisplayName] = useInputState(user.displayName ?? '');
  const [photoURL, setPhotoURL] = useInputState(user.photoURL ?? '');
  const [message, setMessage] = useState<FormMessage>(null);
  const update = useUpdateProfile(user.uid);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!displayName.trim()) {
      setMessage({ kind: 'error', text: 'Please fill in all fields' });
      return;
    }
    update.mutate(
      { displayName: displayName.trim(), photoURL: photoURL.trim() || null },
      {
        onSuccess: () => setMessage({ kind: 'success', text: 'Profile updated.' }),
        onError: (error) => setMessage({ kind: 'error', text: authFailureMessage(error) }),
      },
    );
  };

  return (
    <form onSubmit={submit} aria-label="Edit profile">
      <Stack gap="md">
        <FormMessageAlert message={message} />
        <TextInput label="Display Name" value={displayName} onChange={setDisplayName} />
        <TextInput label="Photo URL" type="url" placeholder="https://" value={photoURL} onChange={setPhotoURL} />
        <Button type="submit" disabled={update.isPending}>
          Save Profile
        </Button>
      </Stack>
    </form>
  );
}
