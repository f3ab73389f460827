import { randomUUID } from 'node:crypto';
import express, { type Express } from 'express';
import type { FeatureModule } from '@qrshirt/core';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { Registry } from 'prom-client';
import { authenticate } from './auth/authenticate';
import type { AuthOptions } from './auth/auth-options';
import { compressAnswers } from './http/compress-answers';
import { errorHandler, unknownApiRoute } from './http/error-handler';
import { httpMetrics } from './http/http-metrics';
import { pageReads } from './http/server-pages';
import { redactUrl } from './http/redact-url';
import type { ProofOfWork } from './http/proof-of-work';
import { handlersOf, routeTable, servedAhead } from './http/route-table';
import { sameOriginOnly } from './http/same-origin';
import { securityHeaders } from './http/security-headers';
import { webClient } from './http/web-client';
import { adminHandlers } from './admin/admin';
import type { AdminDeps } from './admin/admin-deps';
import { authHandlers } from './auth/auth-routes';
import { catalogueListHandlers } from './catalogue/catalogue-routes';
import { type DonationRouteDeps, donationHandlers } from './donations/donation-routes';
import { fundraiserQrHandlers } from './fundraisers/fundraiser-qr-routes';
import { proofOfWorkHandlers } from './http/proof-of-work-routes';
import { type LiveDeps, liveHandlers } from './fundraisers/live';
import { meHandlers } from './auth/me';
import type { RouteDeps } from './route-deps';
import { type FrontDoor, scanRoute } from './fundraisers/scan';
import { apiDescriptionHandlers, systemRoutes } from './http/system-routes';
import { joinWaitlistHandlers } from './waitlist/waitlist-routes';
import { publicDir } from './package-dirs';

interface AppOptions extends RouteDeps, DonationRouteDeps {
  log: Logger;
  /** The features' modules: the app mounts their handlers through the route table. */
  modules: readonly FeatureModule[];
  /** Sign-in and tokens: `auth.tokens` also verifies every bearer token. */
  auth: AuthOptions;
  maxBodyBytes: number;
  /** Express's `trust proxy` value. */
  trustProxy: boolean | number | string;
  /** Request latency is recorded into it (GET /metrics, on the operations port). */
  metrics: Registry;
  /** /api/admin/*: who is an admin, the overview, projection status and rebuilds. */
  admin: AdminDeps;
  /** Server-sent live updates of owners' figures. */
  live: LiveDeps;
  /**
   * What the pages may frame and call besides this site (the Content-Security-Policy), whether they
   * show test money, and Stripe's publishable key when Stripe takes donations (null: the configured
   * widget).
   */
  web: {
    widgetUrl: string;
    apiUrl: string;
    demoMode: boolean;
    stripePublishableKey: string | null;
    stripePlatformFeePercent: number;
  };
  /** The challenges of GET /api/challenge, and the solutions routes with `challenge: true` spend. */
  proofOfWork: ProofOfWork;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The gateway's Express app, and what its HTTP server serves ahead of it (see scan.ts). */
interface GatewayApp {
  app: Express;
  frontDoor: FrontDoor;
}

export function createApp(options: AppOptions): GatewayApp {
  const app = express();
  app.disable('x-powered-by');
  // Express hashes every answer for an ETag, writes included: a SHA-1 per scan for a header no
  // scanner uses. The web client keeps its own cache of the catalogue (spec section 9).
  app.set('etag', false);
  app.set('trust proxy', options.trustProxy);
  const headers = securityHeaders({ ...options.web, stripe: options.web.stripePublishableKey !== null });
  const metrics = httpMetrics(options.metrics);
  app.use(headers.middleware);
  app.use(metrics.middleware);
  const requestLog = pinoHttp({
    logger: options.log,
    genReqId(req, res) {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('x-request-id', id);
      return id;
    },
    // One line per request (but a scan answered 202: see scanRoute), without headers (they carry
    // bearer tokens) or secret query values.
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
  // Ahead of compression and the request log: see scanRoute.
  const scan = scanRoute(options, { securityHeaders: headers, metrics, requestLog });
  app.post(scan.pattern, scan.handler);
  app.use(compressAnswers());
  app.use(requestLog);
  app.use(systemRoutes());
  const admin = adminHandlers(options);
  const { tokens, isClosedAccount, credentials } = options.auth;
  const tokenCheck = authenticate(tokens, {
    isClosedAccount,
    sessionsValidAfter: (uid) => credentials.sessionsValidAfter(uid),
  });
  app.use(
    routeTable(
      handlersOf(options.modules, {
        ...fundraiserQrHandlers(options),
        recordScan: servedAhead,
        ...donationHandlers(options),
        ...catalogueListHandlers(options),
        ...joinWaitlistHandlers(options),
        ...liveHandlers(options),
        ...authHandlers(options),
        ...admin.handlers,
        ...meHandlers(admin.check),
        ...apiDescriptionHandlers(),
        ...proofOfWorkHandlers(options),
      }),
      {
        authenticate: tokenCheck,
        requireAdmin: admin.check.requireAdmin,
        sameOrigin: sameOriginOnly(options),
        maxBodyBytes: options.maxBodyBytes,
        redeemProofOfWork: options.proofOfWork.redeem,
      },
    ),
  );
  // An admin path the table does not have is nobody's business but an admin's: 401 or 403 first.
  app.use('/api/admin', tokenCheck, admin.check.requireAdmin);
  app.use('/api', unknownApiRoute);
  app.use(
    webClient({
      publicDir,
      fundraiserIdByShortCode: options.useCases.fundraisers.byShortCode,
      read: pageReads(options),
      anonymousAuth: options.auth.anonymousSignIn,
      demoMode: options.web.demoMode,
      stripePublishableKey: options.web.stripePublishableKey,
      stripePlatformFeePercent: options.web.stripePlatformFeePercent,
      log: options.log,
    }),
  );
  app.use(errorHandler);
  return { app, frontDoor: scan.frontDoor };
}
