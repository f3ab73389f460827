import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

/**
 * Taps Try Again and answers the address its form loads, as `GET` with its fields as the query
 * (components/reload-button.tsx); jsdom navigates nowhere, so the submit is stopped here.
 */
export async function tapTryAgain(user: UserEvent): Promise<string> {
  let sent: HTMLFormElement | undefined;
  const take = (event: SubmitEvent) => {
    event.preventDefault();
    sent = event.target as HTMLFormElement;
  };
  document.addEventListener('submit', take);
  try {
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
  } finally {
    document.removeEventListener('submit', take);
  }
  if (!sent) throw new Error('Try Again sent no form');
  if (sent.method !== 'get') throw new Error(`Try Again's form is sent by ${sent.method}, not get`);
  const address = new URL(sent.action);
  // Hidden fields only: each value is text.
  const fields = [...new FormData(sent)].map(([name, value]) => [name, value as string]);
  address.search = new URLSearchParams(fields).toString();
  return address.pathname + address.search;
}
