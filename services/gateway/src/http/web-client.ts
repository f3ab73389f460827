import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import type { Logger } from 'pino';
import { webDistDir } from '../package-dirs';
import { changesPages, withClientSettings } from './client-settings';
import { serverPages, type PageReads } from './server-pages';

/** Client routes have no file extension; a missing /images/x.svg must stay a 404, not become the app. */
function isClientRoute(requestPath: string): boolean {
  return path.extname(requestPath) === '';
}

/** The twins web/precompress.ts writes beside each built text file, the smaller first. */
const TWINS = [
  { encoding: 'br', extension: '.br' },
  { encoding: 'gzip', extension: '.gz' },
] as const;

/**
 * The build's own files, each as the `.br` or `.gz` twin the build wrote beside it when the client
 * accepts that encoding: compressed once at the highest levels rather than on every request.
 * express-static-gzip would do this, but it lists the twins only when the gateway starts and
 * answers a malformed URL with a plain-text 400 of its own, where the app's fallback should show
 * the client; serve-static serves each twin here instead, with its own ETag (a cache never hands
 * one encoding out for another) and the same Cache-Control, and falls through when there is none.
 */
function precompressed(dir: string, options: Parameters<typeof express.static>[1]): RequestHandler {
  const serve = express.static(dir, options);
  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isClientRoute(req.path)) {
      serve(req, res, next);
      return;
    }
    res.vary('Accept-Encoding');
    const twins = TWINS.filter(({ encoding }) => req.acceptsEncodings(encoding) === encoding);
    const requested = req.url;
    const queryStart = requested.indexOf('?');
    const pathname = queryStart < 0 ? requested : requested.slice(0, queryStart);
    const query = queryStart < 0 ? '' : requested.slice(queryStart);
    const type = path.extname(req.path);
    const attempt = (index: number) => {
      const twin = twins[index];
      if (!twin) {
        req.url = requested;
        res.removeHeader('Content-Encoding');
        res.removeHeader('Content-Type');
        serve(req, res, next);
        return;
      }
      req.url = `${pathname}${twin.extension}${query}`;
      res.setHeader('Content-Encoding', twin.encoding);
      // The original's type: serve-static would name the twin's (application/gzip).
      res.type(type);
      serve(req, res, (error?: unknown) => {
        if (error) {
          req.url = requested;
          next(error);
        } else attempt(index + 1);
      });
    };
    attempt(0);
  };
}

/** Where a short link sends a phone: the fundraiser's page, told it came from a scan, which it records once. */
const scanLandingPath = (fundraiserId: string) => `/fundraiser/${encodeURIComponent(fundraiserId)}?scan=true`;

/**
 * The React client: hashed bundles cached for a year, everything else revalidated, the seed
 * images from the gateway's public folder, and index.html for every other client route so the
 * browser's router can show it (the spec's Page Not Found included). Mounted after /api.
 * A QR code's short link `/q/<code>` is sent on to its fundraiser's page as a scan; an unknown
 * code is the page's "Fundraiser not found" with a 404. That page, `/fundraiser/{id}`, is rendered
 * here with its fundraiser and charity (issue 16), a 404 for an unknown id, and so are the
 * homepage, the shop and a shirt's page; the client's index.html stands in for them while their
 * server module is not built, or when reading or rendering fails.
 */
export function webClient({
  distDir = webDistDir,
  publicDir,
  fundraiserIdByShortCode,
  read,
  serverPagesModule,
  anonymousAuth = true,
  demoMode = false,
  stripePublishableKey = null,
  stripePlatformFeePercent = 0,
  log,
}: {
  distDir?: string;
  publicDir: string;
  fundraiserIdByShortCode: (code: string) => Promise<string | null>;
  /** What the server-rendered pages show. */
  read: PageReads;
  /** The server-rendered pages' built module; web/dist-server's unless a test names another. */
  serverPagesModule?: string;
  /** ANONYMOUS_AUTH: whether the pages' client starts anonymous sessions. */
  anonymousAuth?: boolean;
  /** No live processor: the pages show test money, labelled. */
  demoMode?: boolean;
  /** Stripe's publishable key when Stripe takes donations; null: the configured widget. */
  stripePublishableKey?: string | null;
  /** The platform's share of a card donation, in percent. */
  stripePlatformFeePercent?: number;
  log?: Pick<Logger, 'warn'>;
}): Router {
  const settings = { anonymousAuth, demoMode, stripePublishableKey, stripePlatformFeePercent };
  const pages = serverPages({ distDir, settings, ...(serverPagesModule && { serverBundle: serverPagesModule }) });
  const indexFile = path.join(distDir, 'index.html');
  const sendIndex = async (res: Response, status: number) => {
    if (!existsSync(indexFile)) {
      res.status(503).json({ error: 'The web client is not built: run `npm run build -w web` (npm start does it)' });
      return;
    }
    res.status(status).setHeader('Cache-Control', 'no-cache');
    if (!changesPages(settings)) res.sendFile(indexFile);
    else res.type('html').send(withClientSettings(await readFile(indexFile, 'utf8'), settings));
  };
  const spaFallback: RequestHandler = (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !isClientRoute(req.path)) return next();
    return sendIndex(res, 200);
  };
  // Spec section 2: any other address a person opens (`/anything.txt`) is the app's Page Not Found,
  // with its 404; a missing file asked for by a page (an image, a script) stays a bare 404.
  const pageNotFound: RequestHandler = (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.headers.accept?.includes('text/html')) return next();
    return sendIndex(res, 404);
  };
  // The code as sent, undecoded: one of ours is plain letters and digits, and a malformed escape
  // in anything else is an unknown code like any other, not a 400.
  const shortLink: RequestHandler = async (req, res, next) => {
    const code = req.path.slice(1);
    if ((req.method !== 'GET' && req.method !== 'HEAD') || code === '' || code.includes('/')) return next();
    const fundraiserId = await fundraiserIdByShortCode(code);
    if (fundraiserId === null) {
      if (await pages.sendLanding(res, req.originalUrl, null)) return;
      // Unbuilt, the client cannot say it: a 404 all the same, not the 503 of a missing page.
      if (!existsSync(indexFile)) return void res.status(404).json({ error: 'Fundraiser not found' });
      return sendIndex(res, 404);
    }
    // Not cached: every scan must reach the page that records it.
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, scanLandingPath(fundraiserId));
  };
  // A page that cannot be read or rendered here (a malformed escape, a read or a render that
  // failed) is the client's to show, its own way.
  const rendered =
    (send: (req: Request, res: Response) => Promise<boolean>): RequestHandler =>
    async (req, res, next) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return next();
      try {
        if (!(await send(req, res))) next();
      } catch (error) {
        log?.warn({ err: error, path: req.originalUrl }, 'the page was not rendered on the server');
        next();
      }
    };
  /** The one path segment under a page's mount point (`/fundraiser/{id}`), decoded; null when there is none. */
  const idSegment = (req: Request) => {
    const segment = req.path.slice(1);
    if (segment === '' || segment.includes('/') || !isClientRoute(req.path)) return null;
    return decodeURIComponent(segment);
  };
  const landing = rendered(async (req, res) => {
    const fundraiserId = idSegment(req);
    if (fundraiserId === null) return false;
    return pages.sendLanding(res, req.originalUrl, await read.landing(fundraiserId));
  });
  // An unknown shirt is the client's "Shirt Not Found", as before.
  const shirtPage = rendered(async (req, res) => {
    const shirtId = idSegment(req);
    if (shirtId === null) return false;
    const [shirt, charities] = await Promise.all([read.shirt(shirtId), read.charities()]);
    return shirt !== null && pages.sendShirt(res, { url: req.originalUrl, shirt, charities });
  });
  return Router()
    .get(
      '/',
      rendered((_req, res) => pages.sendHome(res)),
    )
    .get(
      '/shop',
      rendered(async (req, res) => pages.sendShop(res, req.originalUrl, await read.shirts())),
    )
    .use('/q', shortLink)
    .use('/fundraiser', landing)
    .use('/shirt', shirtPage)
    .use('/assets', precompressed(path.join(distDir, 'assets'), { immutable: true, maxAge: '1y', index: false }))
    .use(precompressed(distDir, { index: false }))
    .use(express.static(publicDir, { maxAge: '1h', index: false }))
    .use(spaFallback)
    .use(pageNotFound);
}
