/** A phone browser's user agent, as scanners send it. */
export const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/**
 * The headers of scanner number `n`, a person of their own: an address of their own (in
 * X-Forwarded-For, which the tests' gateways believe from loopback, as TRUST_PROXY's default
 * says) and a phone, sending JSON as the spec's client does. Scans from one test client would
 * otherwise be one visitor, counted once per 30 minutes.
 */
export function scanner(n: number, overrides: { address?: string; userAgent?: string } = {}): Record<string, string> {
  return {
    'x-forwarded-for': overrides.address ?? `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
    'user-agent': overrides.userAgent ?? PHONE,
    'content-type': 'application/json',
  };
}

/** Robots and link previewers that must never count (user agents as they send them). */
export const ROBOTS = {
  facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  slack: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  whatsapp: 'WhatsApp/2.23.20.0 A',
  telegram: 'TelegramBot (like TwitterBot)',
  discord: 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  twitter: 'Twitterbot/1.0',
  linkedin: 'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  google: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  bing: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
};
