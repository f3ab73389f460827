import type { AdminCreateShirtRequest, AdminUpdateShirtRequest, Shirt } from '@qrshirt/contracts';
import type { Clock } from '../kit/clock';
import type { CommandHandler } from '../kit/command-handler';
import { type ShirtFields, type ShirtState, shirtDecider, shirtStreamName } from './shirt-decider';

export interface ShirtUseCaseDeps {
  commands: CommandHandler;
  clock: Clock;
  newId: () => string;
}

/** A shirt as the API shows it: the price in dollars, optional fields only when set. */
export function toShirt({ id, priceCents, ...fields }: ShirtFields & { id: string }): Shirt {
  return {
    id,
    name: fields.name,
    description: fields.description,
    price: priceCents / 100,
    ...(fields.category !== undefined && { category: fields.category }),
    sizes: fields.sizes,
    ...(fields.tags !== undefined && { tags: fields.tags }),
    images: fields.images,
  };
}

const answer = ({ shirtId, addedAt: _addedAt, updatedAt: _updatedAt, ...fields }: ShirtState) =>
  toShirt({ id: shirtId, ...fields });

/** The form speaks dollars, the events cents (the schema allows whole cents only). */
const cents = (price: number) => Math.round(price * 100);

/** Each change is an event on `shirt-<id>`; the shop shows it once the catalogue projection has it. */
export function createShirtUseCases({ commands, clock, newId }: ShirtUseCaseDeps) {
  return {
    async add({ price, ...fields }: AdminCreateShirtRequest): Promise<Shirt> {
      const shirtId = newId();
      const { state } = await commands.handle(shirtStreamName(shirtId), shirtDecider, () => ({
        type: 'AddShirt',
        shirtId,
        fields: { ...fields, priceCents: cents(price) },
        at: clock().toISOString(),
      }));
      return answer(state!);
    },

    /** Changes the fields given. */
    async update(shirtId: string, { price, ...fields }: AdminUpdateShirtRequest): Promise<Shirt> {
      const { state } = await commands.handle(shirtStreamName(shirtId), shirtDecider, () => ({
        type: 'UpdateShirt',
        shirtId,
        fields: { ...fields, ...(price !== undefined && { priceCents: cents(price) }) },
        at: clock().toISOString(),
      }));
      return answer(state!);
    },
  };
}
export type ShirtUseCases = ReturnType<typeof createShirtUseCases>;
