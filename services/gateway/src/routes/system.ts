import { buildOpenApiDocument } from '@qrshirt/contracts';
import { type Readiness, readinessAnswer } from '@qrshirt/runtime';
import { Router } from 'express';
import type { Registry } from 'prom-client';
import { unknownApiRoute } from '../http/error-handler';
import type { Handlers } from '../http/route-table';

/** GET /api/openapi.json, made once from the route table. */
export function apiDescriptionHandlers(): Pick<Handlers, 'getOpenApi'> {
  const openApi = buildOpenApiDocument({ version: '1.0.0' });
  return {
    getOpenApi() {
      return { status: 200, body: openApi };
    },
  };
}

/**
 * Liveness, readiness and metrics, outside the API. `/healthz` answers as long as the
 * process serves HTTP (and is the benchmarks' trivial baseline); `/readyz` asks the event store,
 * the read model store and Kafka, and answers 503 naming those that do not answer. With an
 * operations port, /readyz and /metrics are served there only (`opsOnPublicPort: false`).
 */
export function systemRoutes(options: { readiness: Readiness; metrics: Registry; opsOnPublicPort: boolean }): Router {
  const { readiness, metrics } = options;
  const router = Router().get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  // Answered here rather than by the web client's fallback, which would show its Not Found page.
  if (!options.opsOnPublicPort) return router.get(['/metrics', '/readyz'], unknownApiRoute);
  return router
    .get('/readyz', async (_req, res) => {
      const { status, body } = readinessAnswer(await readiness.check());
      res.status(status).json(body);
    })
    .get('/metrics', async (_req, res) => {
      res.type(metrics.contentType).send(await metrics.metrics());
    });
}
