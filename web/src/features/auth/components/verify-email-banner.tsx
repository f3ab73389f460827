import { Alert, Group, Text } from '@mantine/core';
import { useMe } from '@/lib/auth/me';
import { ResendVerificationButton } from './resend-verification-button';

/**
 * Shown until the signed-in user's address is verified; nothing while that is not known yet, so a
 * verified user never sees it flash.
 */
export function VerifyEmailBanner({ uid, email }: { uid: string; email: string | null }) {
  const me = useMe(uid);
  if (!me.data || me.data.emailVerified || me.data.anonymous) return null;
  return (
    <Alert color="yellow" variant="light" title="Please verify your email address" data-testid="verify-email-banner">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Text size="sm">
          We sent a link to {email ?? 'your email address'}. Open it to confirm the address is yours; until then, some
          features (such as claiming a shirt) stay closed.
        </Text>
        <ResendVerificationButton label="Resend link" />
      </Group>
    </Alert>
  );
}
