import { ANONYMOUS_AUTH_META, DEMO_MODE_META } from '@qrshirt/contracts';

/** What the pages' client learns from the gateway that serves them. */
export interface ClientSettings {
  anonymousAuth: boolean;
  /** No live processor: owners see test money in place of money raised, labelled. */
  demoMode: boolean;
}

/** Whether a page needs any meta tag: with the defaults it is served as built. */
export const changesPages = ({ anonymousAuth, demoMode }: ClientSettings): boolean => !anonymousAuth || demoMode;

/**
 * A page as the gateway serves it, with its settings in meta tags its client reads at start (one
 * build serves every setting): ANONYMOUS_AUTH=false, demo mode.
 */
export function withClientSettings(html: string, settings: ClientSettings): string {
  if (!changesPages(settings)) return html;
  const tags = [
    ...(settings.anonymousAuth ? [] : [`<meta name="${ANONYMOUS_AUTH_META}" content="false">`]),
    ...(settings.demoMode ? [`<meta name="${DEMO_MODE_META}" content="true">`] : []),
  ];
  return html.replace(/<head[^>]*>/i, (head) => `${head}${tags.join('')}`);
}
