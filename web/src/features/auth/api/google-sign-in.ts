import { useMutation } from '@tanstack/react-query';
import { errorFromResponse, operationUrl } from '@/lib/http';

/**
 * GET /api/auth/google redirects to Google when it is configured and answers 503 when it is not.
 * A first request that does not follow redirects tells the two apart, so the visitor sees the
 * error on this page instead of landing on a bare JSON answer.
 */
async function startGoogleSignIn(): Promise<void> {
  const url = operationUrl('startGoogleSignIn');
  const probe = await fetch(url, { redirect: 'manual' });
  if (probe.type !== 'opaqueredirect' && !probe.ok) throw await errorFromResponse(probe);
  window.location.assign(url);
}

export function useGoogleSignIn() {
  return useMutation({ mutationFn: startGoogleSignIn });
}
