import type { RequestHandler } from 'express';
import { HttpError } from './http-error';

/**
 * The CSRF guard of the routes a cookie authenticates (refresh, sign-out): a browser sends the
 * cookie whichever page makes the request, so another site's form or script could have it
 * rotated or ended. SameSite=Strict already keeps the cookie off such requests; this refuses
 * them outright, for browsers that do not honour it too: a request the browser says came from
 * another site (`Sec-Fetch-Site: cross-site`), or whose `Origin` is neither the web client's
 * (PUBLIC_BASE_URL, which may be another host of the same site when VITE_API_URL points here)
 * nor this API's own. A request with neither header is no browser's, and brings only a cookie
 * its sender holds itself.
 */
export function sameOriginOnly({ publicBaseUrl }: { publicBaseUrl: string }): RequestHandler {
  const webClient = new URL(publicBaseUrl).origin;
  return (req, _res, next) => {
    const refuse = () => next(new HttpError(403, 'This request must come from this site'));
    if (req.get('sec-fetch-site') === 'cross-site') return refuse();
    const origin = req.get('origin');
    if (origin !== undefined && origin !== webClient && origin !== `${req.protocol}://${req.get('host')}`) {
      return refuse();
    }
    next();
  };
}
