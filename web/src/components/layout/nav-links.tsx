import { Button, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { signOut } from '@/lib/auth/auth-lifecycle';
import { useAuth } from '@/lib/auth/use-auth';

/** Links shown beside Dashboard to a signed-in user, each deciding for itself whether it applies to them. */
export type ExtraLinks = React.ComponentType<{ uid: string; onNavigate?: (() => void) | undefined }>;

/** Spec: a greeting, Dashboard and Sign Out for a signed-in user; otherwise Sign In. */
export function AccountLinks({
  onNavigate,
  extraLinks: Extra,
}: {
  onNavigate?: () => void;
  extraLinks?: ExtraLinks | undefined;
}) {
  const auth = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  if (auth.status !== 'signed-in') {
    return (
      <Button component={Link} to={paths.signIn} onClick={onNavigate}>
        Sign In
      </Button>
    );
  }

  const leave = async () => {
    onNavigate?.();
    await signOut();
    // The next user of this browser must not see this one's figures.
    queryClient.removeQueries({ queryKey: ['user-stats'] });
    queryClient.removeQueries({ queryKey: ['fundraiser-stats'] });
    // Nor an admin's: waitlist names and emails, unmasked events.
    queryClient.removeQueries({ queryKey: ['admin'] });
    void navigate(paths.home);
  };

  return (
    <>
      <Text fw={500} data-testid="greeting">
        Hi, {auth.user.displayName || auth.user.email}!
      </Text>
      {Extra && <Extra uid={auth.user.uid} onNavigate={onNavigate} />}
      <Button component={Link} to={paths.dashboard} variant="light" color="blue" onClick={onNavigate}>
        Dashboard
      </Button>
      <Button variant="default" onClick={() => void leave()}>
        Sign Out
      </Button>
    </>
  );
}
