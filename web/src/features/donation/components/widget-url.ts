import { env } from '@/config/env';

/**
 * The configured widget, told which fundraiser it collects for, and where the API answers when it
 * is not this site (the demo widget calls the product's demo processor there).
 */
export function donationWidgetUrl(fundraiserId: string, base = window.location.href): URL {
  const url = new URL(env.VITE_DONATION_WIDGET_URL, base);
  url.searchParams.set('fundraiserId', fundraiserId);
  if (env.VITE_API_URL) url.searchParams.set('api', new URL(env.VITE_API_URL, base).origin);
  return url;
}
