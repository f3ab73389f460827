import type { adminProjectionRoutes } from '@qrshirt/contracts';
import { HttpError, notFound } from '../http/http-error';
import type { HandlersOf } from '../http/route-table';
import type { AdminDeps } from './admin-deps';

/**
 * Projection status and blue/green rebuilds. A rebuild runs in this gateway, readers keep the
 * active version until the new one has caught up, and its progress is kept here (another
 * gateway behind the same load balancer does not know it).
 */
export function adminProjectionHandlers({ admin }: { admin: AdminDeps }): HandlersOf<typeof adminProjectionRoutes> {
  const { projections, rebuilds } = admin;

  function projectorNamed(name: string) {
    const projector = projections.find(name);
    if (!projector) throw notFound('Projection');
    return projector;
  }

  return {
    async listProjections() {
      return { status: 200, body: await projections.status() };
    },
    startRebuild({ params }) {
      const projector = projectorNamed(params.name);
      if (rebuilds.get(projector.name)?.state === 'running') {
        throw new HttpError(409, `A rebuild of ${projector.name} is already running`);
      }
      return { status: 202, body: rebuilds.start(projector) };
    },
    getRebuild({ params }) {
      const projector = projectorNamed(params.name);
      const rebuild = rebuilds.get(projector.name);
      if (!rebuild) throw new HttpError(404, `No rebuild of ${projector.name} was started from this gateway`);
      return { status: 200, body: rebuild };
    },
  };
}
