import type { charityRoutes, shirtRoutes } from '@qrshirt/contracts';
import type { CatalogQueries } from '@qrshirt/core';
import { jsonOnce } from '../http/json-once';
import type { HandlersOf } from '../http/route-table';

type CatalogueLists = Pick<typeof shirtRoutes, 'listShirts'> & Pick<typeof charityRoutes, 'listCharities'>;

/**
 * The shop's two lists, read on every visit: their JSON is written once per change of the
 * catalogue and sent as it is. The catalogue's other routes are its module's (core's catalogue/).
 */
export function catalogueListHandlers({ catalog }: { catalog: CatalogQueries }): HandlersOf<CatalogueLists> {
  const serialised = jsonOnce();
  return {
    async listShirts({ res }) {
      res.type('json').send(serialised(await catalog.listShirts()));
    },
    async listCharities({ res }) {
      res.type('json').send(serialised(await catalog.listCharities()));
    },
  };
}
