import { Button, Container, Group } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import type { VerificationLink } from '@/features/auth/api/verify-email';
import { EmailVerification } from '@/features/auth/components/email-verification';
import { readPendingClaim } from '@/features/claims/api/pending-claim';
import { useAuth } from '@/lib/auth/use-auth';
import { linkToken, useLinkFragment } from '@/lib/link-fragment';

/** The token, and the new address a change of address's link carries beside it. */
function verificationLink(fragment: URLSearchParams): VerificationLink | null {
  const token = linkToken(fragment);
  return token === null ? null : { token, email: fragment.get('email') };
}

/**
 * The page the verification mail links to, /verify-email#token=<token>, and the change of
 * address's mail, /verify-email#token=<token>&email=<new address>.
 */
export function VerifyEmailRoute() {
  const auth = useAuth();
  const link = useLinkFragment(verificationLink);
  // Verifying on the way to claiming a shirt: the way back to it.
  const [claiming] = useState(() => readPendingClaim() !== null);

  return (
    <Container size="xl" py={{ base: 'xl', sm: 64 }}>
      <title>Verify your email · QR Shirts for Charity</title>
      <EmailVerification link={link} user={auth.user} sessionKnown={auth.status !== 'loading'} />
      {claiming && (
        <Group justify="center" mt="lg">
          <Button component={Link} to={paths.claim}>
            Claim your shirt
          </Button>
        </Group>
      )}
    </Container>
  );
}
