import { Container } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { WaitlistConfirmation } from '@/features/waitlist/components/waitlist-confirmation';

/** The page the waitlist's confirmation mail links to: /waitlist/confirm#token=<token>. */
export function WaitlistConfirmRoute() {
  const location = useLocation();
  const navigate = useNavigate();
  // Read once: the fragment leaves the address right away, so the token stays out of the history.
  const [token] = useState(() => new URLSearchParams(location.hash.replace(/^#/, '')).get('token'));
  useEffect(() => {
    if (location.hash) void navigate({ pathname: location.pathname, search: location.search }, { replace: true });
  }, [navigate, location.hash, location.pathname, location.search]);

  return (
    <Container size="xl" py={{ base: 'xl', sm: 64 }}>
      <title>Confirm your place · QR Shirts for Charity</title>
      <WaitlistConfirmation token={token} />
    </Container>
  );
}
