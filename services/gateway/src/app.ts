import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { authenticate } from './auth/authenticate';
import type { TokenVerifier } from './auth/token-verifier';
import { errorHandler, unknownApiRoute } from './http/error-handler';
import { analyticsRoutes } from './routes/analytics';
import { charityRoutes } from './routes/charities';
import { fundraiserRoutes } from './routes/fundraisers';
import type { RouteDeps } from './routes/route-deps';
import { shirtRoutes } from './routes/shirts';
import { systemRoutes } from './routes/system';
import { userRoutes } from './routes/users';
import { waitlistRoutes } from './routes/waitlist';

export const publicDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public');

export interface AppOptions extends RouteDeps {
  log: Logger;
  tokens: TokenVerifier;
  maxBodyBytes: number;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function createApp(options: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(
    pinoHttp({
      logger: options.log,
      genReqId(req, res) {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      // One line per request, without headers: they carry bearer tokens.
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  app.use(systemRoutes());
  app.use('/api', express.json({ limit: options.maxBodyBytes }));
  app.use('/api', authenticate(options.tokens));
  // Express tries routers in order: the scanners' and the shop's routes go first.
  app.use(fundraiserRoutes(options));
  app.use(shirtRoutes(options));
  app.use(charityRoutes(options));
  app.use(waitlistRoutes(options));
  app.use(userRoutes(options));
  app.use(analyticsRoutes(options));
  app.use('/api', unknownApiRoute);
  app.use(express.static(publicDir, { maxAge: '1h', index: 'index.html' }));
  app.use(errorHandler);
  return app;
}
