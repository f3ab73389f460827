import { Container } from '@mantine/core';
import { WaitlistConfirmation } from '@/features/waitlist/components/waitlist-confirmation';
import { linkToken, useLinkFragment } from '@/lib/link-fragment';

/** The page the waitlist's confirmation mail links to: /waitlist/confirm#token=<token>. */
export function WaitlistConfirmRoute() {
  const token = useLinkFragment(linkToken);

  return (
    <Container size="xl" py={{ base: 'xl', sm: 64 }}>
      <title>Confirm your place · QR Shirts for Charity</title>
      <WaitlistConfirmation token={token} />
    </Container>
  );
}
