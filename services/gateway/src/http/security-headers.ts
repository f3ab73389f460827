import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/** The page the QR page frames; only this site may frame it. */
const WIDGET_PAGE = '/widget/demo-donation.html';

/**
 * What Stripe's embedded Checkout asks of the page that mounts it, from Stripe's integration
 * security guide (docs.stripe.com/security/guide#content-security-policy): Stripe.js (its script
 * and hidden frames from js.stripe.com, its API) and Checkout's own sources. Not the guide's
 * other Stripe.js entries: Google Maps serves the Address Element's autocomplete, which this site
 * does not mount (and maps.googleapis.com hosts known script gadgets), and hooks.stripe.com frames
 * 3-D Secure for payments confirmed on the page, which Checkout does inside its own frame, under
 * its own policy. Its `img-src https://*.stripe.com` is covered by `https:` already.
 */
const STRIPE_SOURCES = {
  scriptSrc: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://checkout.stripe.com'],
  frameSrc: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://checkout.stripe.com'],
  connectSrc: ['https://api.stripe.com', 'https://checkout.stripe.com'],
};

/** The origin of an absolute http(s) URL; none for a path on this site ('self' covers it). */
function originOf(url: string): string[] {
  return /^https?:\/\//i.test(url) ? [new URL(url).origin] : [];
}

/**
 * Helmet's headers on every answer. The Content-Security-Policy lets pages load only this site's
 * own scripts (no inline script anywhere: the demo widget's script is a file too), frame only this
 * site and the configured donation widget, call only this site's API (or VITE_API_URL's), with
 * Stripe configured also load, frame and call what Stripe's embedded Checkout needs, start
 * workers only from this site's own files (the ALTCHA widget's, which solves on submit), and be
 * framed by nobody: clickjacking a donation or a sign-in form is off the table. The one exception
 * is the demo widget page, which this site's own QR page frames.
 * Styles may be inline: Mantine writes its CSS variables into `style` attributes and injects its
 * color-scheme `<style>` at run time, and a hash cannot cover values computed in the browser.
 * Images may come from any https host: charity logos and profile photos are URLs people give us.
 * HSTS only when the request came over HTTPS (a trusted proxy's X-Forwarded-Proto counts, through
 * Express's `trust proxy`): sent over plain HTTP it would be ignored, and on localhost it would
 * pin the browser to an HTTPS that is not there.
 */
export function securityHeaders({
  widgetUrl,
  apiUrl,
  stripe = false,
}: {
  widgetUrl: string;
  apiUrl: string;
  /** Whether Stripe takes donations. */
  stripe?: boolean;
}): SecurityHeaders {
  const stripeSources = (directive: keyof typeof STRIPE_SOURCES) => (stripe ? STRIPE_SOURCES[directive] : []);
  const directives = (frameAncestors: string) => ({
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...stripeSources('scriptSrc')],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'https:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", ...originOf(apiUrl), ...stripeSources('connectSrc')],
    // The proof-of-work widget's workers: script files of this site, never blob: or data: URLs.
    workerSrc: ["'self'"],
    frameSrc: ["'self'", ...originOf(widgetUrl), ...stripeSources('frameSrc')],
    frameAncestors: [frameAncestors],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
  });
  const common = {
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' as const },
    strictTransportSecurity: false,
  };
  const forPages = helmet({
    ...common,
    contentSecurityPolicy: { useDefaults: false, directives: directives("'none'") },
    xFrameOptions: { action: 'deny' },
  });
  const forWidget = helmet({
    ...common,
    contentSecurityPolicy: { useDefaults: false, directives: directives("'self'") },
    xFrameOptions: { action: 'sameorigin' },
  });
  const hsts = helmet.strictTransportSecurity({ maxAge: 365 * 24 * 60 * 60, includeSubDomains: true });
  const middleware: RequestHandler = (req, res, next) => {
    if (req.secure) hsts(req, res, () => undefined);
    (req.path === WIDGET_PAGE ? forWidget : forPages)(req, res, next);
  };
  const overHttp = headersSetBy((res, done) => forPages(undefined as never, res as never, done));
  const overHttps = headersSetBy((res, done) => {
    hsts(undefined as never, res as never, () => forPages(undefined as never, res as never, done));
  });
  return { middleware, forPagesOf: (secure) => (secure ? overHttps : overHttp) };
}

export interface SecurityHeaders {
  /** Sets them on every answer. */
  middleware: RequestHandler;
  /**
   * What `middleware` sets on an answer to any path but the widget page, as a flat list of names
   * and values (`writeHead`'s form), for a request over HTTPS or not. Helmet makes them the same
   * for every such request, so they are made once: an answer written with them in one call skips
   * a dozen middleware and `setHeader` calls (see scan.ts).
   */
  forPagesOf(secure: boolean): readonly string[];
}

/** The headers a middleware sets, read once from a stand-in for a response. */
function headersSetBy(run: (res: Pick<ServerResponse, 'setHeader' | 'removeHeader'>, done: () => void) => void) {
  const set = new Map<string, [string, string]>();
  let finished = false;
  const res = {
    setHeader(name: string, value: number | string | readonly string[]) {
      set.set(name.toLowerCase(), [name, String(value)]);
      return res as unknown as ServerResponse;
    },
    removeHeader(name: string) {
      set.delete(name.toLowerCase());
    },
  };
  run(res, () => {
    finished = true;
  });
  if (!finished) throw new Error('The security headers could not be worked out ahead of requests');
  return [...set.values()].flat();
}
