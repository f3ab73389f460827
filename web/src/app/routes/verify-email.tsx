import { Button, Container, Group } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { EmailVerification } from '@/features/auth/components/email-verification';
import { readPendingClaim } from '@/features/claims/api/pending-claim';
import { useAuth } from '@/lib/auth/use-auth';

/** The page the verification mail links to: /verify-email#token=<token>. */
export function VerifyEmailRoute() {
  const location = useLocation();
  const navigate = useNavigate();
  const auth = useAuth();
  // Read once: the fragment is removed from the address right away, so the token stays out of
  // the history and a reload does not replay it.
  const [token] = useState(() => new URLSearchParams(location.hash.replace(/^#/, '')).get('token'));
  // Verifying on the way to claiming a shirt: the way back to it.
  const [claiming] = useState(() => readPendingClaim() !== null);
  useEffect(() => {
    if (location.hash) void navigate({ pathname: location.pathname, search: location.search }, { replace: true });
  }, [navigate, location.hash, location.pathname, location.search]);

  return (
    <Container size="xl" py={{ base: 'xl', sm: 64 }}>
      <title>Verify your email · QR Shirts for Charity</title>
      <EmailVerification token={token} signedIn={auth.status === 'signed-in'} />
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
