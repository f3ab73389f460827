import { buildOpenApiDocument, type apiDescriptionRoutes } from '@qrshirt/contracts';
import { Router } from 'express';
import { unknownApiRoute } from './error-handler';
import type { HandlersOf } from './route-table';

/** GET /api/openapi.json, made once from the route table. */
export function apiDescriptionHandlers(): HandlersOf<typeof apiDescriptionRoutes> {
  const openApi = buildOpenApiDocument({ version: '1.0.0' });
  return {
    getOpenApi() {
      return { status: 200, body: openApi };
    },
  };
}

/**
 * Liveness on the public port, outside the API: `/healthz` answers as long as the process serves
 * HTTP (and is the benchmarks' trivial baseline). `/readyz` (which names the dependencies that do
 * not answer) and `/metrics` (the product's figures) are the operations port's only
 * (`startOpsServer`), which is on loopback unless OPS_HOST says otherwise.
 */
export function systemRoutes(): Router {
  return (
    Router()
      .get('/healthz', (_req, res) => {
        res.json({ status: 'ok' });
      })
      // Answered here rather than by the web client's fallback, which would show its Not Found page.
      .get(['/metrics', '/readyz'], unknownApiRoute)
  );
}
