import { describe, expect, it } from 'vitest';
import type { EventOf } from '@qrshirt/contracts';
import { readEvent } from '@qrshirt/contracts';
import { type CharityFields, charityDecider, charityStreamName } from '../../src/catalogue/charity-decider';
import { foldEvents } from '../../src/kit/fold-events';
import { isApprovedCharity } from '../../src/ports/catalogue';
import { deciderSpec } from './decider-spec';
import { T0, T1, charityCreated } from './fixtures';

const spec = deciderSpec(charityDecider);
const fields: CharityFields = {
  name: 'GiveDirectly',
  mission: 'Sends cash directly to people living in poverty.',
  website_url: 'https://www.givedirectly.org',
  logo_url: '/images/charities/givedirectly.svg',
};

const submitted: EventOf<'CharityCreated'> = {
  type: 'CharityCreated',
  data: { ...charityCreated.data, createdBy: 'member-1', status: 'pending' },
};
const approved: EventOf<'CharityApproved'> = {
  type: 'CharityApproved',
  data: { charityId: 'givedirectly', approvedBy: 'admin-1', at: T1 },
};
const rejected: EventOf<'CharityRejected'> = {
  type: 'CharityRejected',
  data: { charityId: 'givedirectly', rejectedBy: 'admin-1', reason: 'Not a registered charity.', at: T1 },
};
const approve = { type: 'ApproveCharity', charityId: 'givedirectly', by: 'admin-1', at: T1 } as const;
const reject = {
  type: 'RejectCharity',
  charityId: 'givedirectly',
  by: 'admin-1',
  reason: '  Not a registered charity. ',
  at: T1,
} as const;

const create = (createdBy: string, status: 'approved' | 'pending', at = T0) =>
  ({ type: 'CreateCharity', charityId: 'givedirectly', fields, createdBy, status, at }) as const;

describe('charity decider', () => {
  it('creates a charity', () => {
    spec.given([]).when(create('user-1', 'approved')).then([charityCreated]);
  });

  it("records a member's charity as pending", () => {
    spec.given([]).when(create('member-1', 'pending')).then([submitted]);
  });

  it('refuses to create a charity twice', () => {
    spec
      .given([charityCreated])
      .when(create('user-2', 'approved', T1))
      .thenFails('conflict', 'Charity already exists');
  });

  it('approves a pending charity, and a rejected one (an admin may change their mind)', () => {
    spec.given([submitted]).when(approve).then([approved]);
    spec.given([submitted, rejected]).when(approve).then([approved]);
  });

  it('records nothing when approving an approved charity again', () => {
    spec.given([submitted, approved]).when(approve).then([]);
    spec.given([charityCreated]).when(approve).then([]);
  });

  it('rejects a pending charity with the reason trimmed', () => {
    spec.given([submitted]).when(reject).then([rejected]);
  });

  it('records nothing when rejecting a rejected charity again: the first reason stands', () => {
    spec
      .given([submitted, rejected])
      .when({ ...reject, reason: 'Another reason' })
      .then([]);
  });

  it('refuses to reject a charity in the shop, and a rejection without a reason', () => {
    spec.given([charityCreated]).when(reject).thenFails('conflict', 'This charity is in the shop already');
    spec.given([submitted, approved]).when(reject).thenFails('conflict', 'This charity is in the shop already');
    spec
      .given([submitted])
      .when({ ...reject, reason: '   ' })
      .thenFails('validation', 'Give a reason');
  });

  it('refuses to review a charity that does not exist', () => {
    spec.given([]).when(approve).thenFails('not_found', 'Charity not found');
    spec.given([]).when(reject).thenFails('not_found', 'Charity not found');
  });

  it('offers supporters only an approved charity', () => {
    expect(isApprovedCharity(foldEvents(charityDecider, [submitted]))).toBe(false);
    expect(isApprovedCharity(foldEvents(charityDecider, [submitted, rejected]))).toBe(false);
    expect(isApprovedCharity(foldEvents(charityDecider, [submitted, approved]))).toBe(true);
    expect(isApprovedCharity(foldEvents(charityDecider, [charityCreated]))).toBe(true);
    expect(isApprovedCharity(null)).toBe(false);
  });

  it('keeps the reason while rejected, and drops it once approved', () => {
    expect(foldEvents(charityDecider, [submitted, rejected])).toMatchObject({
      status: 'rejected',
      rejectionReason: 'Not a registered charity.',
    });
    const later = foldEvents(charityDecider, [submitted, rejected, approved]);
    expect(later).toMatchObject({ status: 'approved', updatedAt: T1 });
    expect(later).not.toHaveProperty('rejectionReason');
  });

  it('reads a charity of an old log (schema version 1, no status) as approved', () => {
    const { status: _status, ...v1 } = charityCreated.data;
    const event = readEvent('CharityCreated', v1, {});
    expect(event).toEqual(charityCreated);
    expect(isApprovedCharity(foldEvents(charityDecider, [event as EventOf<'CharityCreated'>]))).toBe(true);
  });

  it('records only the fields that change', () => {
    spec
      .given([charityCreated])
      .when({
        type: 'UpdateCharity',
        charityId: 'givedirectly',
        fields: { name: 'GiveDirectly', mission: 'Cash, directly.' },
        at: T1,
      })
      .then([{ type: 'CharityUpdated', data: { charityId: 'givedirectly', mission: 'Cash, directly.', at: T1 } }]);
  });

  it("records the legal name and tax id of donors' receipts, and changes them like any field", () => {
    const receipts = { legalName: 'GiveDirectly, Inc.', taxId: '27-1661997' };
    spec
      .given([])
      .when({ ...create('admin-1', 'approved'), fields: { ...fields, ...receipts } })
      .then([{ type: 'CharityCreated', data: { ...charityCreated.data, ...receipts, createdBy: 'admin-1' } }]);
    spec
      .given([charityCreated])
      .when({ type: 'UpdateCharity', charityId: 'givedirectly', fields: { taxId: '27-1661997' }, at: T1 })
      .then([{ type: 'CharityUpdated', data: { charityId: 'givedirectly', taxId: '27-1661997', at: T1 } }]);
    const updated = foldEvents(charityDecider, [
      charityCreated,
      { type: 'CharityUpdated', data: { charityId: 'givedirectly', ...receipts, at: T1 } },
    ]);
    expect(updated).toMatchObject(receipts);
    // A charity of a log from before receipts has neither.
    expect(foldEvents(charityDecider, [charityCreated])).not.toHaveProperty('taxId');
  });

  it('refuses an update that changes nothing', () => {
    spec
      .given([charityCreated])
      .when({ type: 'UpdateCharity', charityId: 'givedirectly', fields: { name: 'GiveDirectly' }, at: T1 })
      .thenFails('validation', 'No charity field changes');
  });

  it('refuses to update a charity that does not exist', () => {
    spec
      .given([])
      .when({ type: 'UpdateCharity', charityId: 'nope', fields: { name: 'Nope' }, at: T1 })
      .thenFails('not_found', 'Charity not found');
  });

  it('folds creation and updates into the current charity', () => {
    const state = foldEvents(charityDecider, [
      charityCreated,
      { type: 'CharityUpdated', data: { charityId: 'givedirectly', mission: 'Cash, directly.', at: T1 } },
    ]);
    expect(state).toEqual({
      ...fields,
      mission: 'Cash, directly.',
      charityId: 'givedirectly',
      createdBy: 'user-1',
      status: 'approved',
      createdAt: T0,
      updatedAt: T1,
    });
  });

  it('names its stream after the charity', () => {
    expect(charityStreamName('givedirectly')).toBe('charity-givedirectly');
  });
});
