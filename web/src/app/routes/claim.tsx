import { Alert, Button, Card, Container, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { paths } from '@/config/paths';
import { useResendVerification } from '@/features/auth/api/resend-verification';
import { useProofOfWork } from '@/lib/proof-of-work/use-proof-of-work';
import { useCreateClaim } from '@/features/claims/api/create-claim';
import {
  forgetPendingClaim,
  keepPendingClaim,
  type PendingClaim,
  readPendingClaim,
} from '@/features/claims/api/pending-claim';
import { useMe } from '@/lib/auth/me';
import { type SignedInUser, useAuth } from '@/lib/auth/use-auth';
import { useLinkFragment } from '@/lib/link-fragment';

/** The claim link's fragment (`#token=...&email=...`), or the claim kept while its person signed up. */
function readClaim(fragment: URLSearchParams): PendingClaim | null {
  const token = fragment.get('token');
  if (!token) return readPendingClaim();
  const claim = { token, email: fragment.get('email') };
  keepPendingClaim(claim);
  return claim;
}

function ClaimCard({ children }: { children: React.ReactNode }) {
  return (
    <Card withBorder radius="md" padding="xl" maw={480} mx="auto" w="100%" shadow="sm">
      <Stack gap="md">
        <Title order={1} size="h2" ta="center">
          Claim your shirt
        </Title>
        {children}
      </Stack>
    </Card>
  );
}

function SignedInClaim({ user, claim }: { user: SignedInUser; claim: PendingClaim }) {
  const navigate = useNavigate();
  const me = useMe(user.uid);
  const claiming = useCreateClaim();
  const proofOfWork = useProofOfWork();
  const resend = useResendVerification(proofOfWork.solve);
  const tried = useRef(false);
  const verified = me.data?.emailVerified === true;

  // Verified: claim at once, the person already said they want it by opening the link.
  useEffect(() => {
    if (!verified || tried.current) return;
    tried.current = true;
    claiming.mutate(claim.token, {
      onSuccess: () => {
        forgetPendingClaim();
        void navigate(paths.dashboard, { replace: true });
      },
    });
  }, [verified, claim.token, claiming, navigate]);

  if (me.isPending) return <PageLoader label="Checking your account..." />;
  if (!verified) {
    return (
      <ClaimCard>
        <Text>
          Please verify your email address first: we mailed a link to {user.email ?? 'your address'}. Open it, then come
          back to this page.
        </Text>
        <Button onClick={() => void me.refetch()} loading={me.isFetching}>
          I have verified it
        </Button>
        <Button
          variant="default"
          onClick={() => resend.mutate()}
          loading={resend.isPending}
          disabled={resend.isSuccess}
        >
          {resend.isSuccess ? 'Link sent' : 'Send the link again'}
        </Button>
        {proofOfWork.widget}
      </ClaimCard>
    );
  }
  if (claiming.isError) {
    return (
      <ClaimCard>
        <Alert color="red" title="We could not give you this shirt">
          {claiming.error.message}
        </Alert>
        <Button variant="default" onClick={() => void navigate(paths.dashboard)}>
          Go to my dashboard
        </Button>
      </ClaimCard>
    );
  }
  return <PageLoader label="Claiming your shirt..." />;
}

/** The page the claim mail links to: sign in or up with the mailed address, verify it, claim. */
export function ClaimRoute() {
  const navigate = useNavigate();
  const auth = useAuth();
  const claim = useLinkFragment(readClaim);

  return (
    <Container size="xl" py={{ base: 'xl', sm: 64 }}>
      <title>Claim your shirt · QR Shirts for Charity</title>
      {!claim ? (
        <ClaimCard>
          <Text>This page needs the link from your email. Open the link exactly as it came.</Text>
        </ClaimCard>
      ) : auth.status === 'loading' ? (
        <PageLoader label="Loading..." />
      ) : auth.status === 'signed-out' ? (
        <ClaimCard>
          <Text>
            Your shirt is ready. Sign in, or create an account, with{' '}
            {claim.email ?? 'the address the link was mailed to'} to claim it.
          </Text>
          <Button
            onClick={() =>
              void navigate(paths.signIn, { state: { from: paths.claim, ...(claim.email && { email: claim.email }) } })
            }
          >
            Sign in or sign up
          </Button>
        </ClaimCard>
      ) : (
        <SignedInClaim user={auth.user} claim={claim} />
      )}
    </Container>
  );
}
