import { Alert, Button, Card, Loader, Stack, Text, Title } from '@mantine/core';
import { type EmailLinkPreview, linkAskedBy } from '@qrshirt/contracts';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { signOut } from '@/lib/auth/auth-lifecycle';
import type { SignedInUser } from '@/lib/auth/use-auth';
import { isApiError } from '@/lib/http';
import { useEmailLinkPreview } from '../api/preview-email-link';
import { useVerifyEmail, type VerificationLink } from '../api/verify-email';
import { usePostSignInRedirect } from './post-sign-in-redirect';
import { ResendVerificationButton } from './resend-verification-button';
import { SignInForm } from './sign-in-form';

interface EmailVerificationProps {
  /** From the link's fragment; null when the page was opened without one. */
  link: VerificationLink | null;
  /** The signed-in account; null signed out (or anonymous). */
  user: SignedInUser | null;
  /** False while the session is still being restored: whose link it is cannot be told yet. */
  sessionKnown: boolean;
}

const NOT_YOURS = 'If that account is not yours, ignore this link: nothing changes without it.';

/** Where Google's round trip comes back to: this page with its link, which the fragment carried. */
const returnPath = ({ token, email }: VerificationLink) =>
  `${paths.verifyEmail}#${new URLSearchParams(email === null ? { token } : { token, email }).toString()}`;

/**
 * What /verify-email shows: what the link would do and which account asked for it, then, signed
 * in as that account (on this page if need be), the person confirms and the link is spent once.
 * Opening the link does nothing by itself: the address's owner may not know the account that asked.
 */
export function EmailVerification({ link, user, sessionKnown }: EmailVerificationProps) {
  const preview = useEmailLinkPreview(link, user?.uid ?? null, sessionKnown);
  const verify = useVerifyEmail();
  const changing = link !== null && link.email !== null;

  const wayOn = user ? (
    <ResendVerificationButton />
  ) : (
    <Button component={Link} to={paths.signIn} variant="default">
      Sign in to get a new link
    </Button>
  );

  return (
    <Card withBorder radius="md" padding="xl" maw={520} mx="auto" w="100%">
      <Stack gap="md">
        <Title order={1} size="h2">
          {changing ? 'Change your email address' : 'Verify your email address'}
        </Title>
        {link === null ? (
          <>
            <Alert color="yellow" variant="light" role="alert">
              This page needs the link from the email we sent you. Open the link in that email, or ask for a new one.
            </Alert>
            {wayOn}
          </>
        ) : verify.isSuccess ? (
          <>
            <Alert color="green" variant="light" role="status">
              {verify.data.changed
                ? `Your email address was changed to ${verify.data.email}: sign in with it from now on.`
                : `Your email address is verified: ${verify.data.email}`}
            </Alert>
            <Button component={Link} to={paths.dashboard}>
              Go to your dashboard
            </Button>
          </>
        ) : preview.isError ? (
          <>
            <Alert color="red" variant="light" role="alert">
              {preview.error.message}
            </Alert>
            {wayOn}
          </>
        ) : preview.data ? (
          <LinkConfirmation
            link={link}
            preview={preview.data}
            user={user}
            confirm={() => verify.mutate(link)}
            confirming={verify.isPending}
            failure={verify.isError ? verifyFailure(verify.error) : null}
          />
        ) : (
          <Stack align="center" gap="xs" role="status">
            <Loader />
            <Text c="dimmed">Reading your link...</Text>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

/** A session that ended meanwhile answers the server's code, which is not meant to be read. */
function verifyFailure(error: Error): string {
  return isApiError(error, 401) ? 'Your session has ended: sign in again to confirm.' : error.message;
}

function LinkConfirmation({
  link,
  preview,
  user,
  confirm,
  confirming,
  failure,
}: {
  link: VerificationLink;
  preview: EmailLinkPreview;
  user: SignedInUser | null;
  confirm: () => void;
  confirming: boolean;
  failure: string | null;
}) {
  const { rememberFrom } = usePostSignInRedirect(returnPath(link));
  return (
    <>
      <Text fw={500}>{linkAskedBy(preview.displayName, preview.email)}</Text>
      <Text c="dimmed" size="sm">
        {preview.change
          ? 'Confirming moves that account to this address; its old address is no longer used.'
          : 'Confirming verifies this address for that account.'}
      </Text>
      {preview.yours ? (
        <>
          {failure !== null && (
            <Alert color="red" variant="light" role="alert">
              {failure}
            </Alert>
          )}
          <Button onClick={confirm} loading={confirming}>
            {preview.change ? 'Use this address' : 'Confirm my address'}
          </Button>
        </>
      ) : user ? (
        <>
          <Alert color="yellow" variant="light" role="alert">
            You are signed in to another account{user.email ? ` (${user.email})` : ''}. Only the account that asked can
            use this link: sign out, then sign in to it here. {NOT_YOURS}
          </Alert>
          <Button variant="default" onClick={() => void signOut()}>
            Sign out
          </Button>
        </>
      ) : (
        <>
          <Text>Sign in to that account to confirm. {NOT_YOURS}</Text>
          <SignInForm onSignedIn={() => undefined} onLeavingForGoogle={rememberFrom} />
        </>
      )}
    </>
  );
}
