import { Container } from '@mantine/core';
import { WaitlistRemoval } from '@/features/waitlist/components/waitlist-removal';
import { linkToken, useLinkFragment } from '@/lib/link-fragment';

/** The page every waitlist mail's removal link opens: /waitlist/remove#token=<token>, no sign-in needed. */
export function WaitlistRemoveRoute() {
  const token = useLinkFragment(linkToken);

  return (
    <Container size="xl" py={{ base: 'xl', sm: 64 }}>
      <title>Remove me from the waitlist · QR Shirts for Charity</title>
      <WaitlistRemoval token={token} />
    </Container>
  );
}
