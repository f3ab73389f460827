import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { Histogram, type Registry } from 'prom-client';

export interface HttpMetrics {
  /** Every request Express serves, labelled with the route pattern it matched. */
  middleware: RequestHandler;
  /** A request served ahead of Express (see scan.ts), labelled with its route's pattern. */
  track(req: IncomingMessage, res: ServerResponse, route: string): void;
}

/**
 * Request latency by method, route pattern and status. The pattern (`/api/fundraisers/:id`), not
 * the path, keeps the label set small; requests no route matched (static files, 404s) share one.
 */
export function httpMetrics(registry: Registry): HttpMetrics {
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  function observe(req: IncomingMessage, res: ServerResponse, route: () => string): void {
    const startedAt = process.hrtime.bigint();
    res.once('finish', () => {
      duration.observe(
        { method: req.method ?? '', route: route(), status: String(res.statusCode) },
        Number(process.hrtime.bigint() - startedAt) / 1e9,
      );
    });
  }
  return {
    middleware(req, res, next) {
      observe(req, res, () => {
        // Express types the matched route as any; its path is the pattern it was registered with.
        const matched = req.route as { path: unknown } | undefined;
        return matched ? `${req.baseUrl}${String(matched.path)}` : 'unmatched';
      });
      next();
    },
    track(req, res, route) {
      observe(req, res, () => route);
    },
  };
}
