import { apiRoutes } from '@qrshirt/contracts';
import { addressGroup } from '@qrshirt/core';
import type { Request, RequestHandler, Response } from 'express';
import { startTime } from 'pino-http';
import { clientLimit } from '../http/client-limits';
import { errorHandler } from '../http/error-handler';
import { HttpError } from '../http/http-error';
import type { HttpMetrics } from '../http/http-metrics';
import { expressPath } from '../http/route-table';
import type { SecurityHeaders } from '../http/security-headers';
import { parseInput } from '../http/validate';
import type { RouteDeps } from '../route-deps';

const route = apiRoutes.recordScan;
const pattern = expressPath(route.path);

/**
 * A scan as phones send it: the id in plain characters (no escapes to decode) and perhaps a query.
 * Other spellings Express still matches (a trailing slash, an escaped id) go to Express.
 */
const PLAIN_SCAN_URL = /^\/api\/fundraisers\/([A-Za-z0-9][A-Za-z0-9_-]*)\/scan(?:\?|$)/;

/** Takes a request before Express does, or answers false and leaves it to Express. */
export type FrontDoor = (req: Request, res: Response) => boolean;

/** What Express runs for every request, which a scan taken ahead of it must run too. */
interface AheadOfExpress {
  securityHeaders: SecurityHeaders;
  metrics: HttpMetrics;
  requestLog: RequestHandler;
}

const ignore = () => undefined;

/** Ids the route's schema has taken lately: a crowd scans a few shirts, each many times. */
const KNOWN_IDS = 10_000;

/**
 * The id as the route's schema takes it, parsed once per id rather than once per scan: zod's
 * object parse was a visible part of a scan's CPU. The schema stays the one rule; only ids it
 * accepted are remembered, and the memory starts over once it holds KNOWN_IDS of them.
 */
function idChecker(): (id: string) => string {
  const accepted = new Set<string>();
  return (id) => {
    if (accepted.has(id)) return id;
    const checked = parseInput(route.params, { id }).id;
    if (accepted.size >= KNOWN_IDS) accepted.clear();
    accepted.add(checked);
    return checked;
  };
}

const JSON_TYPE = /^application\/json\s*(;|$)/i;
/** What Sec-Fetch-Site says of a request the site's own pages (or the person, typing it) made. */
const OWN_SITE = new Set(['same-origin', 'same-site', 'none']);

/**
 * Whether another site's page sent this scan. A page can make a browser POST anywhere without
 * asking (a form, an image, a `no-cors` fetch, a beacon), but only with a body a form could send:
 * never as `application/json`, which takes a CORS preflight this gateway does not grant. So a
 * JSON scan, as the spec's client sends it, is the site's; otherwise Fetch Metadata says whose
 * page sent it. A browser without it (before 2023) still sends Origin with a POST. A request with
 * neither comes from no web page at all (a program can send any header anyway).
 */
function fromAnotherSite(req: Request): boolean {
  const type = req.headers['content-type'];
  if (type !== undefined && JSON_TYPE.test(type)) return false;
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return !OWN_SITE.has(site);
  const origin = req.headers.origin;
  return origin !== undefined && origin.slice(origin.indexOf('//') + 2) !== req.headers.host;
}

const CROSS_SITE =
  "A scan from another site's page is not taken: send it as JSON (Content-Type: application/json) or from this site";

/**
 * POST /api/fundraisers/{id}/scan, the route a crowd of phones calls at once. A scan is served by
 * `frontDoor`, ahead of Express, whose router and middleware chain cost each scan about 7 µs of
 * the 65 µs of CPU it takes (measured against the same route in Express, on a 2-core machine at
 * 50 connections: a tenth more scans per second). The front door runs what a scan needs of that
 * chain: the security headers and the latency metric; compression is of no use on a 60-byte JSON.
 * The headers go out with the answer in one `writeHead`, from the list helmet's middleware makes
 * for every request alike (`forPagesOf`), rather than through that middleware: another 3-4 µs.
 * A scan answered 202 gets no request line (nor request id); one that fails gets its line, its
 * request id and the same `{ error }` answer as any other request, through the request log and
 * the error handler. `handler` serves, in Express, the spellings of the path the front door
 * leaves to it.
 *
 * Before anything is stored: a scan another site's page sent is refused (403, see
 * `fromAnotherSite`), so no site can turn its visitors into scanners; and one client (an IPv4
 * address, an IPv6 /64) may send the route's `perClient` allowance, counted in this gateway's
 * memory (http/client-limits.ts says why), a map lookup per scan.
 */
export function scanRoute({ useCases }: Pick<RouteDeps, 'useCases'>, ahead: AheadOfExpress) {
  const { fundraisers } = useCases;
  const limit = clientLimit(route.perClient);
  const checkedId = idChecker();

  /** `headers`: the security headers when no middleware has set them (ahead of Express). */
  async function serve(
    req: Request,
    res: Response,
    id: string,
    headers: readonly string[],
    fail: (error: unknown) => void,
  ): Promise<void> {
    // The request line of a failed scan reports its time from here, not from when it failed.
    (res as Response & { [startTime]: number })[startTime] = Date.now();
    let answer: string;
    try {
      if (fromAnotherSite(req)) throw new HttpError(403, CROSS_SITE);
      // The address is what TRUST_PROXY makes of X-Forwarded-For: hashed with the user agent, never kept.
      const address = req.ip ?? '';
      await limit(addressGroup(address));
      const origin = { address, userAgent: req.headers['user-agent'] ?? '' };
      answer = JSON.stringify(await fundraisers.recordScan(checkedId(id), origin));
    } catch (error) {
      for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!);
      ahead.requestLog(req, res, () => fail(error));
      return;
    }
    res
      .writeHead(
        202,
        headers.concat(
          'Content-Type',
          'application/json; charset=utf-8',
          'Content-Length',
          String(Buffer.byteLength(answer)),
        ),
      )
      .end(answer);
  }

  const frontDoor: FrontDoor = (req, res) => {
    if (req.method !== 'POST') return false;
    const plain = PLAIN_SCAN_URL.exec(req.url);
    if (!plain) return false;
    // What Express's own start would have done, which its answers (res.json) rely on.
    req.res = res;
    ahead.metrics.track(req, res, pattern);
    // Express's `req.secure` asks the trust proxy setting about the peer's address (a parse of
    // it) on every call; without X-Forwarded-Proto its answer is the socket's whatever it says.
    const secure =
      req.headers['x-forwarded-proto'] === undefined
        ? (req.socket as { encrypted?: boolean }).encrypted === true
        : req.secure;
    const headers = ahead.securityHeaders.forPagesOf(secure);
    void serve(req, res, plain[1]!, headers, (error) => errorHandler(error, req, res, ignore));
    return true;
  };

  const handler: RequestHandler = (req, res, next) => serve(req, res, String(req.params.id), [], next);

  return { pattern, frontDoor, handler };
}
