import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Readiness } from '@qrshirt/runtime';
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { Registry } from 'prom-client';
import { authenticate } from './auth/authenticate';
import type { AuthOptions } from './auth/auth-options';
import { errorHandler, unknownApiRoute } from './http/error-handler';
import { httpMetrics } from './http/http-metrics';
import { redactUrl } from './http/redact-url';
import { securityHeaders } from './http/security-headers';
import { webClient } from './http/web-client';
import { adminRoutes } from './routes/admin';
import type { AdminDeps } from './routes/admin-deps';
import { analyticsRoutes } from './routes/analytics';
import { authRoutes } from './routes/auth';
import { charityRoutes } from './routes/charities';
import { fundraiserRoutes } from './routes/fundraisers';
import { type LiveDeps, liveRoutes } from './routes/live';
import type { RouteDeps } from './routes/route-deps';
import { shirtRoutes } from './routes/shirts';
import { systemRoutes } from './routes/system';
import { userRoutes } from './routes/users';
import { waitlistRoutes } from './routes/waitlist';

export const publicDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public');

export interface AppOptions extends RouteDeps {
  log: Logger;
  /** Sign-in and tokens: `auth.tokens` also verifies every bearer token. */
  auth: AuthOptions;
  maxBodyBytes: number;
  /** Express's `trust proxy` value. */
  trustProxy: boolean | number | string;
  /** GET /readyz: the event store, the read model store and Kafka, when used. */
  readiness: Readiness;
  /** GET /metrics; request latency is recorded into it. */
  metrics: Registry;
  /** /api/admin/*: who is an admin, the overview, projection status and rebuilds. */
  admin: AdminDeps;
  /** Server-sent live updates of owners' figures. */
  live: LiveDeps;
  /** What the pages may frame and call besides this site (the Content-Security-Policy). */
  web: { widgetUrl: string; apiUrl: string };
  /** Serve /metrics and /readyz here too; false when an operations port serves them. */
  opsOnPublicPort: boolean;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function createApp(options: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  // Express hashes every answer for an ETag, writes included: a SHA-1 per scan for a header no
  // scanner uses. The web client keeps its own cache of the catalogue (spec section 9).
  app.set('etag', false);
  app.set('trust proxy', options.trustProxy);
  app.use(securityHeaders(options.web));
  app.use(httpMetrics(options.metrics));
  app.use(
    pinoHttp({
      logger: options.log,
      genReqId(req, res) {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      // One line per request, without headers (they carry bearer tokens) or secret query values.
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          url: redactUrl(req.url),
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  app.use(systemRoutes(options));
  const fundraisers = fundraiserRoutes(options);
  // Scans are most of the traffic and need neither a body nor a user: no parsing, no token check.
  app.use(fundraisers.scans);
  app.use('/api', express.json({ limit: options.maxBodyBytes }));
  // Before the bearer check: a client refreshing its session may still send the expired token.
  app.use(authRoutes(options));
  app.use('/api', authenticate(options.auth.tokens));
  // Express tries routers in order: the shop's routes go first.
  app.use(fundraisers.others);
  app.use(shirtRoutes(options));
  app.use(charityRoutes(options));
  app.use(waitlistRoutes(options));
  app.use(userRoutes(options));
  app.use(analyticsRoutes(options));
  app.use(liveRoutes(options));
  app.use(adminRoutes(options));
  app.use('/api', unknownApiRoute);
  app.use(webClient({ publicDir }));
  app.use(errorHandler);
  return app;
}
