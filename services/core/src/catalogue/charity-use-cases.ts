import type { AdminCharityDetails, Charity, CharityWithStatus } from '@qrshirt/contracts';
import type { Clock } from '../kit/clock';
import type { CommandHandler } from '../kit/command-handler';
import { DomainError } from '../kit/decider';
import { assertSelf, type Caller } from '../kit/caller';
import { type CharityFields, type CharityState, charityDecider, charityStreamName } from './charity-decider';

/** The catalogue read model (projections' catalogue queries), as these use cases read it. */
export interface CharityReadModel {
  /** An approved charity as the shop shows it; null for any other (or one not projected yet). */
  getCharity(id: string): Promise<Charity | null>;
  /** The charities one member submitted, oldest first, whatever their status. */
  listCharitiesCreatedBy(memberId: string): Promise<CharityWithStatus[]>;
}

export interface CharityUseCaseDeps {
  commands: CommandHandler;
  charities: CharityReadModel;
  clock: Clock;
  newId: () => string;
}

function toCharity(state: CharityState): Charity {
  const { charityId, name, mission, website_url, logo_url } = state;
  return { id: charityId, name, mission, website_url, ...(logo_url !== undefined && { logo_url }) };
}

/** Admins see the legal name and tax id of donors' receipts too. */
function forAdmin(state: CharityState): AdminCharityDetails {
  const { legalName, taxId } = state;
  return { ...toCharity(state), ...(legalName !== undefined && { legalName }), ...(taxId !== undefined && { taxId }) };
}

function withStatus(state: CharityState): CharityWithStatus {
  return {
    ...toCharity(state),
    status: state.status,
    ...(state.rejectionReason !== undefined && { rejectionReason: state.rejectionReason }),
  };
}

/**
 * Each change is an event on `charity-<id>`; the shop shows a charity once it is approved and the
 * catalogue projection has it. A member's charity waits for an admin's review.
 */
export function createCharityUseCases({ commands, charities, clock, newId }: CharityUseCaseDeps) {
  async function create(fields: CharityFields, createdBy: string, status: 'pending' | 'approved') {
    const charityId = newId();
    const { state } = await commands.handle(charityStreamName(charityId), charityDecider, () => ({
      type: 'CreateCharity',
      charityId,
      fields,
      createdBy,
      status,
      at: clock().toISOString(),
    }));
    return state!;
  }

  return {
    /** A member's charity: pending until an admin approves it. */
    async submit(fields: CharityFields, memberId: string): Promise<CharityWithStatus> {
      return withStatus(await create(fields, memberId, 'pending'));
    },

    /** An admin's charity: in the shop at once. */
    async create(fields: CharityFields, adminId: string): Promise<AdminCharityDetails> {
      return forAdmin(await create(fields, adminId, 'approved'));
    },

    /** Changes the fields given. */
    async update(charityId: string, fields: Partial<CharityFields>): Promise<AdminCharityDetails> {
      const { state } = await commands.handle(charityStreamName(charityId), charityDecider, () => ({
        type: 'UpdateCharity',
        charityId,
        fields,
        at: clock().toISOString(),
      }));
      return forAdmin(state!);
    },

    async approve(charityId: string, adminId: string): Promise<CharityWithStatus> {
      const { state } = await commands.handle(charityStreamName(charityId), charityDecider, () => ({
        type: 'ApproveCharity',
        charityId,
        by: adminId,
        at: clock().toISOString(),
      }));
      return withStatus(state!);
    },

    async reject(charityId: string, adminId: string, reason: string): Promise<CharityWithStatus> {
      const { state } = await commands.handle(charityStreamName(charityId), charityDecider, () => ({
        type: 'RejectCharity',
        charityId,
        by: adminId,
        reason,
        at: clock().toISOString(),
      }));
      return withStatus(state!);
    },

    /** The charities a member submitted, to that member only, as the catalogue projection has them. */
    async submittedBy(memberId: string, caller: Caller): Promise<CharityWithStatus[]> {
      assertSelf(memberId, caller);
      return charities.listCharitiesCreatedBy(memberId);
    },

    /**
     * An approved charity, to anyone; a pending or rejected one only to the member who submitted
     * it (with its status, and the reason once rejected). Anyone else gets the 404 of an unknown id.
     * The read model first; the event log when it has not caught up, or for the submitter.
     */
    async get(charityId: string, caller: Caller | undefined): Promise<CharityWithStatus> {
      const listed = await charities.getCharity(charityId);
      if (listed) return { ...listed, status: 'approved' };
      const state = await commands.loadState(charityStreamName(charityId), charityDecider);
      const submitter = caller !== undefined && !caller.anonymous && state?.createdBy === caller.uid;
      if (!state || (state.status !== 'approved' && !submitter))
        throw new DomainError('not_found', 'Charity not found');
      return withStatus(state);
    },
  };
}
export type CharityUseCases = ReturnType<typeof createCharityUseCases>;
