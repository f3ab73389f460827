import { buildOpenApiDocument } from '@qrshirt/contracts';
import { Router } from 'express';

/** Liveness and the API description; `/healthz` is also the benchmarks' trivial baseline. */
export function systemRoutes(): Router {
  const openApi = buildOpenApiDocument({ version: '1.0.0' });
  return Router()
    .get('/healthz', (_req, res) => {
      res.json({ status: 'ok' });
    })
    .get('/api/openapi.json', (_req, res) => {
      res.json(openApi);
    });
}
