import type { shirtRoutes } from '@qrshirt/contracts';
import { notFound } from '../http/http-error';
import { jsonOnce } from '../http/json-once';
import type { HandlersOf } from '../http/route-table';
import type { RouteDeps } from './route-deps';

export function shirtHandlers({ catalog }: Pick<RouteDeps, 'catalog'>): HandlersOf<typeof shirtRoutes> {
  const serialised = jsonOnce();
  return {
    async listShirts({ res }) {
      res.type('json').send(serialised(await catalog.listShirts()));
    },
    async getShirt({ params }) {
      const shirt = await catalog.getShirt(params.id);
      if (!shirt) throw notFound('Shirt');
      return { status: 200, body: shirt };
    },
  };
}
