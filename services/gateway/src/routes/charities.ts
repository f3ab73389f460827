import { jsonOnce } from '../http/json-once';
import type { Handlers } from '../http/route-table';
import type { RouteDeps } from './route-deps';

export function charityHandlers({
  catalog,
  useCases,
}: RouteDeps): Pick<Handlers, 'listCharities' | 'getCharity' | 'createCharity'> {
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
