import { idParams } from '@qrshirt/contracts';
import { Router } from 'express';
import { notFound } from '../http/http-error';
import { jsonOnce } from '../http/json-once';
import { parseInput } from '../http/validate';
import type { RouteDeps } from './route-deps';

export function shirtRoutes({ catalog }: Pick<RouteDeps, 'catalog'>): Router {
  const serialised = jsonOnce();
  return Router()
    .get('/api/shirts', async (_req, res) => {
      res.type('json').send(serialised(await catalog.listShirts()));
    })
    .get('/api/shirt/:id', async (req, res) => {
      const { id } = parseInput(idParams, req.params);
      const shirt = await catalog.getShirt(id);
      if (!shirt) throw notFound('Shirt');
      res.json(shirt);
    });
}
