import { env } from '@/config/env';

/** The configured widget, told which fundraiser it collects for. */
export function donationWidgetUrl(fundraiserId: string, base = window.location.href): URL {
  const url = new URL(env.VITE_DONATION_WIDGET_URL, base);
  url.searchParams.set('fundraiserId', fundraiserId);
  return url;
}
