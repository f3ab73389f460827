import { apiRoutes } from '@qrshirt/contracts';
import type { RequestHandler, Response } from 'express';
import { startTime } from 'pino-http';
import { parseInput } from '../http/validate';
import type { RouteDeps } from './route-deps';

const route = apiRoutes.recordScan;

/**
 * POST /api/fundraisers/{id}/scan, the route a crowd of phones calls at once, mounted ahead of
 * what it does not need: compression (its answer is a 60-byte JSON) and the request log, whose
 * per-request child logger and URL redaction cost a request about 1.4 times its work. A scan
 * answered 202 gets no request line (nor request id); one that fails goes through the request log
 * and the error handler like any other request, so it gets its line, its request id and the same
 * `{ error }` answer. The security headers and the latency metrics come before it, as for all.
 */
export function scanRoute({ useCases }: Pick<RouteDeps, 'useCases'>, requestLog: RequestHandler): RequestHandler {
  const { fundraisers } = useCases;
  return async (req, res, next) => {
    // The request line of a failed scan reports its time from here, not from when it failed.
    (res as Response & { [startTime]: number })[startTime] = Date.now();
    let answer: string;
    try {
      const { id } = parseInput(route.params, req.params);
      // The address is what TRUST_PROXY makes of X-Forwarded-For: hashed with the user agent, never kept.
      const origin = { address: req.ip ?? '', userAgent: req.headers['user-agent'] ?? '' };
      answer = JSON.stringify(await fundraisers.recordScan(id, origin));
    } catch (error) {
      requestLog(req, res, () => next(error));
      return;
    }
    res
      .writeHead(202, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(answer),
      })
      .end(answer);
  };
}
