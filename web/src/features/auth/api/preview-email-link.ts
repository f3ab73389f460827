import { type EmailLinkPreview, emailLinkPreview } from '@qrshirt/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api-client';
import type { VerificationLink } from './verify-email';

/**
 * POST /api/auth/verify-email/preview: what a mailed link would do, which account asked for it,
 * and whether this session is that account's; the link stays as it is.
 */
function previewEmailLink({ token, email }: VerificationLink): Promise<EmailLinkPreview> {
  return call('previewEmailLink', {
    body: email === null ? { token } : { token, email },
    schema: emailLinkPreview,
  });
}

/** Per session (`sessionUid`, null signed out): signing in on the page asks again whose link it is. */
const previewQueryOptions = (link: VerificationLink, sessionUid: string | null) =>
  queryOptions({
    queryKey: ['email-link-preview', link.token, link.email, sessionUid],
    queryFn: () => previewEmailLink(link),
    staleTime: Infinity,
  });

/** The link's preview once the session is known (`sessionKnown`); nothing is asked without a link. */
export function useEmailLinkPreview(link: VerificationLink | null, sessionUid: string | null, sessionKnown: boolean) {
  return useQuery({
    ...previewQueryOptions(link ?? { token: '', email: null }, sessionUid),
    enabled: link !== null && sessionKnown,
  });
}
