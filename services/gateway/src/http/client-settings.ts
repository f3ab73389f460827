import { ANONYMOUS_AUTH_META } from '@qrshirt/contracts';

/**
 * A page as the gateway serves it: with ANONYMOUS_AUTH=false, told so in a meta tag its client
 * reads at start (one build serves either setting); else as it is.
 */
export function withClientSettings(html: string, { anonymousAuth }: { anonymousAuth: boolean }): string {
  if (anonymousAuth) return html;
  return html.replace(/<head[^>]*>/i, (head) => `${head}<meta name="${ANONYMOUS_AUTH_META}" content="false">`);
}
