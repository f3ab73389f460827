import { adminCreateShirtRequest, adminUpdateShirtRequest, idParams } from '@qrshirt/contracts';
import { type ShirtState, shirtDecider, shirtStreamName } from '@qrshirt/core';
import { toShirt } from '@qrshirt/projections';
import { Router } from 'express';
import { parseFields } from '../http/field-errors';
import { parseInput } from '../http/validate';
import type { RouteDeps } from './route-deps';

/** The form speaks dollars, the events cents (the schema allows whole cents only). */
const cents = (price: number) => Math.round(price * 100);

const answer = ({ shirtId, addedAt: _addedAt, updatedAt: _updatedAt, ...fields }: ShirtState) =>
  toShirt({ id: shirtId, ...fields });

/** Each change is an event on `shirt-<id>`; the shop shows it once the catalogue projection has it. */
export function adminShirtRoutes({ commands, clock, newId }: RouteDeps): Router {
  return Router()
    .post('/api/admin/shirts', async (req, res) => {
      const { price, ...fields } = parseFields(adminCreateShirtRequest, req.body);
      const shirtId = newId();
      const { state } = await commands.handle(shirtStreamName(shirtId), shirtDecider, () => ({
        type: 'AddShirt',
        shirtId,
        fields: { ...fields, priceCents: cents(price) },
        at: clock().toISOString(),
      }));
      res.status(201).json(answer(state!));
    })
    .put('/api/admin/shirts/:id', async (req, res) => {
      const { id } = parseInput(idParams, req.params);
      const { price, ...fields } = parseFields(adminUpdateShirtRequest, req.body);
      const { state } = await commands.handle(shirtStreamName(id), shirtDecider, () => ({
        type: 'UpdateShirt',
        shirtId: id,
        fields: { ...fields, ...(price !== undefined && { priceCents: cents(price) }) },
        at: clock().toISOString(),
      }));
      res.json(answer(state!));
    });
}
