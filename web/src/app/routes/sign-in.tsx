import { Container } from '@mantine/core';
import { useCallback, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { AuthCard, type GoogleReturn } from '@/features/auth/components/auth-card';
import { PasswordResetConfirm } from '@/features/auth/components/password-reset-confirm';

/** The fragment the auth server sends the browser back with: #google=, #error= or #reset=. */
function readFragment(hash: string): { googleReturn: GoogleReturn | null; resetToken: string | null } {
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const code = fragment.get('google');
  const error = fragment.get('error');
  return {
    googleReturn:
      code !== null || error !== null ? { ...(code !== null && { code }), ...(error !== null && { error }) } : null,
    resetToken: fragment.get('reset'),
  };
}

export function SignInRoute() {
  const location = useLocation();
  const navigate = useNavigate();
  // Read once: the fragment is removed from the address right after, so a reload does not replay it.
  const [{ googleReturn, resetToken }] = useState(() => readFragment(location.hash));
  const [resetting, setResetting] = useState(resetToken !== null);
  const forgetFragment = useCallback(() => {
    // The state says where the visitor came from, for the redirect after sign-in: it goes on unread.
    void navigate(
      { pathname: location.pathname, search: location.search },
      { replace: true, state: location.state as unknown },
    );
  }, [navigate, location.pathname, location.search, location.state]);

  return (
    <Container size="xl" py={{ base: 'xl', sm: 64 }}>
      <title>Sign In · QR Shirts for Charity</title>
      {resetting && resetToken ? (
        <PasswordResetConfirm
          token={resetToken}
          onDone={() => {
            setResetting(false);
            void navigate(paths.signIn, { replace: true });
          }}
        />
      ) : (
        <AuthCard
          googleReturn={googleReturn}
          onGoogleReturnHandled={forgetFragment}
          // A claim link's page sends its person here with the address the link was mailed to.
          {...(typeof (location.state as { email?: unknown } | null)?.email === 'string' && {
            initialEmail: (location.state as { email: string }).email,
          })}
        />
      )}
    </Container>
  );
}
