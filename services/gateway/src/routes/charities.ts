import { createCharityRequest, idParams } from '@qrshirt/contracts';
import { charityDecider, charityStreamName } from '@qrshirt/core';
import { Router } from 'express';
import { requireSignedIn } from '../auth/authenticate';
import { notFound } from '../http/http-error';
import { jsonOnce } from '../http/json-once';
import { parseInput } from '../http/validate';
import type { RouteDeps } from './route-deps';

export function charityRoutes({ catalog, commands, clock, newId }: RouteDeps): Router {
  const serialised = jsonOnce();
  return Router()
    .get('/api/charities', async (_req, res) => {
      res.type('json').send(serialised(await catalog.listCharities()));
    })
    .get('/api/charity/:id', async (req, res) => {
      const { id } = parseInput(idParams, req.params);
      const charity = await catalog.getCharity(id);
      if (!charity) throw notFound('Charity');
      res.json(charity);
    })
    .post('/api/charity', requireSignedIn, async (req, res) => {
      const fields = parseInput(createCharityRequest, req.body);
      const charityId = newId();
      await commands.handle(charityStreamName(charityId), charityDecider, () => ({
        type: 'CreateCharity',
        charityId,
        fields,
        createdBy: req.user!.uid,
        at: clock().toISOString(),
      }));
      res.status(201).json({ id: charityId, ...fields });
    });
}
