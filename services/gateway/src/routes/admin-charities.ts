import { adminCreateCharityRequest, adminUpdateCharityRequest, type Charity, idParams } from '@qrshirt/contracts';
import { type CharityState, charityDecider, charityStreamName } from '@qrshirt/core';
import { Router } from 'express';
import { parseFields } from '../http/field-errors';
import { parseInput } from '../http/validate';
import type { RouteDeps } from './route-deps';

function toCharity(state: CharityState): Charity {
  const { charityId, name, mission, website_url, logo_url } = state;
  return { id: charityId, name, mission, website_url, ...(logo_url !== undefined && { logo_url }) };
}

/** Each change is an event on `charity-<id>`; the shop shows it once the catalogue projection has it. */
export function adminCharityRoutes({ commands, clock, newId }: RouteDeps): Router {
  return Router()
    .post('/api/admin/charities', async (req, res) => {
      const fields = parseFields(adminCreateCharityRequest, req.body);
      const charityId = newId();
      const { state } = await commands.handle(charityStreamName(charityId), charityDecider, () => ({
        type: 'CreateCharity',
        charityId,
        fields,
        createdBy: req.user!.uid,
        at: clock().toISOString(),
      }));
      res.status(201).json(toCharity(state!));
    })
    .put('/api/admin/charities/:id', async (req, res) => {
      const { id } = parseInput(idParams, req.params);
      const fields = parseFields(adminUpdateCharityRequest, req.body);
      const { state } = await commands.handle(charityStreamName(id), charityDecider, () => ({
        type: 'UpdateCharity',
        charityId: id,
        fields,
        at: clock().toISOString(),
      }));
      res.json(toCharity(state!));
    });
}
