import { Card, Stack, Tabs, Text, Title } from '@mantine/core';
import { authErrorMessage } from '@qrshirt/contracts';
import { useEffect, useRef, useState } from 'react';
import { useExchangeGoogleCode } from '../api/exchange-google-code';
import { authFailureMessage } from './auth-failure-message';
import { type FormMessage, FormMessageAlert } from './form-message';
import { usePostSignInRedirect } from './post-sign-in-redirect';
import { SignInForm } from './sign-in-form';
import { SignUpForm } from './sign-up-form';

/** What Google's callback left in the URL fragment: a code to exchange, or an auth error code. */
export interface GoogleReturn {
  code?: string;
  error?: string;
}

interface AuthCardProps {
  googleReturn: GoogleReturn | null;
  /** Once the fragment has been read, so a reload does not replay it. */
  onGoogleReturnHandled: () => void;
  /** Prefilled in both forms: the address a claim link was mailed to. */
  initialEmail?: string;
}

/** Spec: the 'Welcome Back' card, its Sign In and Sign Up tabs, and the end of Google's round trip. */
export function AuthCard({ googleReturn, onGoogleReturnHandled, initialEmail }: AuthCardProps) {
  const [tab, setTab] = useState<string | null>('signin');
  // An auth error Google sent back shows from the first render; only a code needs a round trip.
  const [notice, setNotice] = useState<FormMessage>(() =>
    googleReturn?.error !== undefined ? { kind: 'error', text: authErrorMessage(googleReturn.error) } : null,
  );
  const redirect = usePostSignInRedirect();
  const exchange = useExchangeGoogleCode();
  const handled = useRef(false);

  useEffect(() => {
    if (!googleReturn || handled.current) return;
    handled.current = true;
    onGoogleReturnHandled();
    if (googleReturn.error !== undefined || !googleReturn.code) return;
    exchange.mutate(googleReturn.code, {
      onSuccess: () => {
        setNotice({ kind: 'success', text: 'Successfully signed in with Google!' });
        redirect.redirectSoon();
      },
      onError: (error) => setNotice({ kind: 'error', text: authFailureMessage(error) }),
    });
  }, [googleReturn, onGoogleReturnHandled, exchange, redirect]);

  // Spec: switching tabs clears every field and message; the inactive panel is unmounted.
  const switchTab = (next: string | null) => {
    setNotice(null);
    setTab(next);
  };

  return (
    <Card withBorder radius="md" padding="xl" maw={440} mx="auto" w="100%" shadow="sm">
      <Stack gap="md">
        <div>
          <Title order={1} size="h2" ta="center">
            Welcome Back
          </Title>
          <Text c="dimmed" ta="center" size="sm">
            Sign in to see the good your shirts are doing.
          </Text>
        </div>
        <FormMessageAlert message={notice} />
        {exchange.isPending && <Text size="sm">Signing you in with Google...</Text>}
        <Tabs value={tab} onChange={switchTab} keepMounted={false}>
          <Tabs.List grow mb="md">
            <Tabs.Tab value="signin">Sign In</Tabs.Tab>
            <Tabs.Tab value="signup">Sign Up</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="signin">
            <SignInForm
              onSignedIn={redirect.redirectSoon}
              onLeavingForGoogle={redirect.rememberFrom}
              {...(initialEmail !== undefined && { initialEmail })}
            />
          </Tabs.Panel>
          <Tabs.Panel value="signup">
            <SignUpForm onSignedIn={redirect.redirectSoon} {...(initialEmail !== undefined && { initialEmail })} />
          </Tabs.Panel>
        </Tabs>
      </Stack>
    </Card>
  );
}
