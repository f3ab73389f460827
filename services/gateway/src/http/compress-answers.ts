import compression from 'compression';
import type { RequestHandler } from 'express';

/**
 * Brotli or gzip, as the client accepts, for every compressible answer of 1 KB or more: HTML and
 * JSON here; the build's files arrive already encoded from the web client's handler and pass as
 * they are. An answer that says `Cache-Control: no-transform` (the live event streams) goes out
 * plain, so no compressor holds back an event.
 */
export function compressAnswers(): RequestHandler {
  return compression({
    threshold: 1024,
    filter(req, res) {
      // A file's ETag (index.html's, a seed image's) would otherwise name its plain and compressed
      // bytes alike, which a strong validator must not. Weak, as nginx's gzip makes it, it still
      // answers If-None-Match with 304; every answer made from a plain file gets it, 304s
      // included, so a revalidation hands back the ETag the 200 gave.
      const etag = res.getHeader('ETag');
      if (!res.getHeader('Content-Encoding') && typeof etag === 'string' && !etag.startsWith('W/')) {
        res.setHeader('ETag', `W/${etag}`);
      }
      return compression.filter(req, res);
    },
  });
}
