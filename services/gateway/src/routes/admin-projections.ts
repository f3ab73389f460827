import { projectionNameParams } from '@qrshirt/contracts';
import { Router } from 'express';
import { HttpError, notFound } from '../http/http-error';
import { parseInput } from '../http/validate';
import type { AdminDeps } from './admin-deps';

/**
 * Projection status and blue/green rebuilds. A rebuild runs in this gateway, readers keep the
 * active version until the new one has caught up, and its progress is kept here (another
 * gateway behind the same load balancer does not know it).
 */
export function adminProjectionRoutes({ admin }: { admin: AdminDeps }): Router {
  const { projections, rebuilds } = admin;

  function projectorNamed(params: unknown) {
    const { name } = parseInput(projectionNameParams, params);
    const projector = projections.find(name);
    if (!projector) throw notFound('Projection');
    return projector;
  }

  return Router()
    .get('/api/admin/projections', async (_req, res) => {
      res.json(await projections.status());
    })
    .post('/api/admin/projections/:name/rebuild', (req, res) => {
      const projector = projectorNamed(req.params);
      if (rebuilds.get(projector.name)?.state === 'running') {
        throw new HttpError(409, `A rebuild of ${projector.name} is already running`);
      }
      res.status(202).json(rebuilds.start(projector));
    })
    .get('/api/admin/projections/:name/rebuild', (req, res) => {
      const projector = projectorNamed(req.params);
      const rebuild = rebuilds.get(projector.name);
      if (!rebuild) throw new HttpError(404, `No rebuild of ${projector.name} was started from this gateway`);
      res.json(rebuild);
    });
}
