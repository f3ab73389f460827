import { Alert } from '@mantine/core';

export type FormMessage = { kind: 'error' | 'success'; text: string } | null;

/** The error or success line of the sign-in forms. */
export function FormMessageAlert({ message }: { message: FormMessage }) {
  if (!message) return null;
  return (
    <Alert
      color={message.kind === 'error' ? 'red' : 'green'}
      role={message.kind === 'error' ? 'alert' : 'status'}
      variant="light"
    >
      {message.text}
    </Alert>
  );
}
