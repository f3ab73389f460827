import type { charityRoutes } from '@qrshirt/contracts';
import { jsonOnce } from '../http/json-once';
import type { HandlersOf } from '../http/route-table';
import type { RouteDeps } from './route-deps';

export function charityHandlers({ catalog, useCases }: RouteDeps): HandlersOf<typeof charityRoutes> {
  const serialised = jsonOnce();
  return {
    async listCharities({ res }) {
      res.type('json').send(serialised(await catalog.listCharities()));
    },
    async getCharity({ params, user }) {
      return { status: 200, body: await useCases.charities.get(params.id, user) };
    },
    async createCharity({ body, user }) {
      return { status: 201, body: await useCases.charities.submit(body, user.uid) };
    },
  };
}
