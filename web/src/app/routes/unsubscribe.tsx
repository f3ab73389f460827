import { Container } from '@mantine/core';
import { UnsubscribeResult } from '@/features/owner-mail/components/unsubscribe-result';
import { linkToken, useLinkFragment } from '@/lib/link-fragment';

/** The page a daily summary's unsubscribe link opens: /unsubscribe#token=<token>, no sign-in needed. */
export function UnsubscribeRoute() {
  const token = useLinkFragment(linkToken);

  return (
    <Container size="xl" py={{ base: 'xl', sm: 64 }}>
      <title>Unsubscribe · QR Shirts for Charity</title>
      <UnsubscribeResult token={token} />
    </Container>
  );
}
