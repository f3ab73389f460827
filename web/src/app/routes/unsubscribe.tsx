import { Container } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { UnsubscribeResult } from '@/features/owner-mail/components/unsubscribe-result';

/** The page a daily summary's unsubscribe link opens: /unsubscribe#token=<token>, no sign-in needed. */
export function UnsubscribeRoute() {
  const location = useLocation();
  const navigate = useNavigate();
  // Read once, then taken out of the address, so the token stays out of the history.
  const [token] = useState(() => new URLSearchParams(location.hash.replace(/^#/, '')).get('token'));
  useEffect(() => {
    if (location.hash) void navigate({ pathname: location.pathname, search: location.search }, { replace: true });
  }, [navigate, location.hash, location.pathname, location.search]);

  return (
    <Container size="xl" py={{ base: 'xl', sm: 64 }}>
      <title>Unsubscribe · QR Shirts for Charity</title>
      <UnsubscribeResult token={token} />
    </Container>
  );
}
