import type { EventData, EventOf } from '@qrshirt/contracts';
import { changedFields } from '../kit/changed-fields';
import { type Decider, DomainError } from '../kit/decider';

export type ShirtFields = Omit<EventData<'ShirtAdded'>, 'shirtId' | 'at'>;
export type ShirtImage = ShirtFields['images'][number];

export interface ShirtState extends ShirtFields {
  shirtId: string;
  addedAt: string;
  updatedAt: string;
}

export interface AddShirt {
  type: 'AddShirt';
  shirtId: string;
  fields: ShirtFields;
  at: string;
}

export interface UpdateShirt {
  type: 'UpdateShirt';
  shirtId: string;
  fields: Partial<ShirtFields>;
  at: string;
}

export type ShirtCommand = AddShirt | UpdateShirt;
export type ShirtEvent = EventOf<'ShirtAdded'> | EventOf<'ShirtUpdated'>;

export const shirtStreamName = (shirtId: string): string => `shirt-${shirtId}`;

/** The waitlist offers one button per size and the shop picks the main image, so both must be unambiguous. */
function assertConsistent(fields: Partial<ShirtFields>): void {
  if (fields.sizes && new Set(fields.sizes).size !== fields.sizes.length) {
    throw new DomainError('validation', 'sizes must not repeat');
  }
  if (fields.images) {
    if (new Set(fields.images.map((image) => image.id)).size !== fields.images.length) {
      throw new DomainError('validation', 'image ids must be unique');
    }
    if (fields.images.filter((image) => image.isMain).length > 1) {
      throw new DomainError('validation', 'at most one image may be the main image');
    }
  }
}

/** State is null until the shirt is added, so a loaded state can be handed on as "the shirt or nothing". */
export const shirtDecider: Decider<ShirtCommand, ShirtEvent, ShirtState | null> = {
  initialState: () => null,

  decide(command, state) {
    switch (command.type) {
      case 'AddShirt': {
        if (state) throw new DomainError('conflict', 'Shirt already exists');
        assertConsistent(command.fields);
        return [{ type: 'ShirtAdded', data: { ...command.fields, shirtId: command.shirtId, at: command.at } }];
      }
      case 'UpdateShirt': {
        if (!state) throw new DomainError('not_found', 'Shirt not found');
        const changes = changedFields<ShirtFields>(state, command.fields);
        if (Object.keys(changes).length === 0) throw new DomainError('validation', 'No shirt field changes');
        assertConsistent(changes);
        return [{ type: 'ShirtUpdated', data: { ...changes, shirtId: state.shirtId, at: command.at } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ShirtAdded': {
        const { at, ...shirt } = event.data;
        return { ...shirt, addedAt: at, updatedAt: at };
      }
      case 'ShirtUpdated': {
        if (!state) return state;
        const { at, shirtId: _shirtId, ...changes } = event.data;
        return { ...state, ...changes, updatedAt: at };
      }
    }
  },
};
