import type { CharityStatus, EventData, EventOf } from '@qrshirt/contracts';
import { changedFields } from '../kit/changed-fields';
import { type Decider, DomainError } from '../kit/decider';

export type CharityFields = Omit<EventData<'CharityCreated'>, 'charityId' | 'createdBy' | 'status' | 'at'>;

export interface CharityState extends CharityFields {
  charityId: string;
  createdBy: string | null;
  /** Only an approved charity is in the shop: listed, offered, supported by fundraisers and waitlists. */
  status: CharityStatus;
  /** The admin's reason, while rejected. */
  rejectionReason?: string;
  createdAt: string;
  updatedAt: string;
}

export interface CreateCharity {
  type: 'CreateCharity';
  charityId: string;
  fields: CharityFields;
  /** The creating user's id; null for the seeded catalogue. */
  createdBy: string | null;
  /** 'pending' for a member's charity, which an admin reviews; 'approved' for an admin's or the seed's. */
  status: 'pending' | 'approved';
  at: string;
}

export interface UpdateCharity {
  type: 'UpdateCharity';
  charityId: string;
  fields: Partial<CharityFields>;
  at: string;
}

export interface ApproveCharity {
  type: 'ApproveCharity';
  charityId: string;
  /** The admin's user id. */
  by: string;
  at: string;
}

export interface RejectCharity {
  type: 'RejectCharity';
  charityId: string;
  by: string;
  reason: string;
  at: string;
}

export type CharityCommand = CreateCharity | UpdateCharity | ApproveCharity | RejectCharity;
export type CharityEvent =
  EventOf<'CharityCreated'> | EventOf<'CharityUpdated'> | EventOf<'CharityApproved'> | EventOf<'CharityRejected'>;

export const charityStreamName = (charityId: string): string => `charity-${charityId}`;

/** State is null until the charity is created, so a loaded state can be handed on as "the charity or nothing". */
export const charityDecider: Decider<CharityCommand, CharityEvent, CharityState | null> = {
  initialState: () => null,

  decide(command, state) {
    switch (command.type) {
      case 'CreateCharity': {
        if (state) throw new DomainError('conflict', 'Charity already exists');
        const { charityId, fields, createdBy, status, at } = command;
        return [{ type: 'CharityCreated', data: { ...fields, charityId, createdBy, status, at } }];
      }
      case 'UpdateCharity': {
        if (!state) throw new DomainError('not_found', 'Charity not found');
        const changes = changedFields<CharityFields>(state, command.fields);
        if (Object.keys(changes).length === 0) throw new DomainError('validation', 'No charity field changes');
        return [{ type: 'CharityUpdated', data: { ...changes, charityId: state.charityId, at: command.at } }];
      }
      case 'ApproveCharity': {
        if (!state) throw new DomainError('not_found', 'Charity not found');
        // A second click, or two admins at once: it is in the shop already.
        if (state.status === 'approved') return [];
        // A rejected charity may still be approved: an admin can change their mind.
        return [
          { type: 'CharityApproved', data: { charityId: state.charityId, approvedBy: command.by, at: command.at } },
        ];
      }
      case 'RejectCharity': {
        if (!state) throw new DomainError('not_found', 'Charity not found');
        // Fundraisers and waitlist entries may already support it: taking it out of the shop is not a review.
        if (state.status === 'approved') throw new DomainError('conflict', 'This charity is in the shop already');
        if (state.status === 'rejected') return [];
        const reason = command.reason.trim();
        if (!reason) throw new DomainError('validation', 'Give a reason');
        return [
          {
            type: 'CharityRejected',
            data: { charityId: state.charityId, rejectedBy: command.by, reason, at: command.at },
          },
        ];
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
      case 'CharityApproved': {
        if (!state) return state;
        const { rejectionReason: _reason, ...rest } = state;
        return { ...rest, status: 'approved', updatedAt: event.data.at };
      }
      case 'CharityRejected':
        return state && { ...state, status: 'rejected', rejectionReason: event.data.reason, updatedAt: event.data.at };
    }
  },
};
