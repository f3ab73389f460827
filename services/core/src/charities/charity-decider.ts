import type { EventData, EventOf } from '@qrshirt/contracts';
import { changedFields } from '../event-sourcing/changed-fields';
import { type Decider, DomainError } from '../event-sourcing/decider';

export type CharityFields = Omit<EventData<'CharityCreated'>, 'charityId' | 'createdBy' | 'at'>;

export interface CharityState extends CharityFields {
  charityId: string;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface CreateCharity {
  type: 'CreateCharity';
  charityId: string;
  fields: CharityFields;
  /** The creating user's id; null for the seeded catalogue. */
  createdBy: string | null;
  at: string;
}

export interface UpdateCharity {
  type: 'UpdateCharity';
  charityId: string;
  fields: Partial<CharityFields>;
  at: string;
}

export type CharityCommand = CreateCharity | UpdateCharity;
export type CharityEvent = EventOf<'CharityCreated'> | EventOf<'CharityUpdated'>;

export const charityStreamName = (charityId: string): string => `charity-${charityId}`;

/** State is null until the charity is created, so a loaded state can be handed on as "the charity or nothing". */
export const charityDecider: Decider<CharityCommand, CharityEvent, CharityState | null> = {
  initialState: () => null,

  decide(command, state) {
    switch (command.type) {
      case 'CreateCharity': {
        if (state) throw new DomainError('conflict', 'Charity already exists');
        const { charityId, fields, createdBy, at } = command;
        return [{ type: 'CharityCreated', data: { ...fields, charityId, createdBy, at } }];
      }
      case 'UpdateCharity': {
        if (!state) throw new DomainError('not_found', 'Charity not found');
        const changes = changedFields<CharityFields>(state, command.fields);
        if (Object.keys(changes).length === 0) throw new DomainError('validation', 'No charity field changes');
        return [{ type: 'CharityUpdated', data: { ...changes, charityId: state.charityId, at: command.at } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'CharityCreated': {
        const { at, ...charity } = event.data;
        return { ...charity, createdAt: at, updatedAt: at };
      }
      case 'CharityUpdated': {
        if (!state) return state;
        const { at, charityId: _charityId, ...changes } = event.data;
        return { ...state, ...changes, updatedAt: at };
      }
    }
  },
};
