import type { EventOf } from '@qrshirt/contracts';
import { describe, expect, it } from 'vitest';
import { foldEvents } from '../../src/kit/fold-events';
import { fundraiserDecider } from '../../src/fundraisers/fundraiser-decider';
import { deciderSpec } from './decider-spec';
import { T0, T1, charity, shirt } from './fixtures';

const spec = deciderSpec(fundraiserDecider);

const created: EventOf<'FundraiserCreated'> = {
  type: 'FundraiserCreated',
  data: {
    fundraiserId: 'f-1',
    userId: 'user-1',
    charityId: 'givedirectly',
    shirtId: 'scan-me-maybe',
    name: 'Scan Me Maybe',
    at: T0,
  },
};

const legacyDonation = (amountCents: number, idempotencyKey: string | null = null): EventOf<'DonationRecorded'> => ({
  type: 'DonationRecorded',
  data: {
    fundraiserId: 'f-1',
    donationId: 'd-1',
    amountCents,
    currency: 'USD',
    source: 'widget',
    idempotencyKey,
    at: T1,
  },
});

describe('fundraiser decider: creation', () => {
  const create = { type: 'CreateFundraiser', fundraiserId: 'f-1', userId: 'user-1', charity, shirt, at: T0 } as const;

  it('creates a fundraiser named after its shirt by default', () => {
    spec.given([]).when(create).then([created]);
  });

  it('uses a given name, trimmed, and the shirt name for a blank one', () => {
    spec
      .given([])
      .when({ ...create, name: '  Team Tee  ' })
      .then([{ ...created, data: { ...created.data, name: 'Team Tee' } }]);
    spec
      .given([])
      .when({ ...create, name: '   ' })
      .then([created]);
  });

  it('refuses a charity that does not exist', () => {
    spec
      .given([])
      .when({ ...create, charity: null })
      .thenFails('not_found', 'Charity not found');
  });

  it('refuses a charity awaiting review or rejected, as if it did not exist', () => {
    spec
      .given([])
      .when({ ...create, charity: { ...charity, status: 'pending' } })
      .thenFails('not_found', 'Charity not found');
    spec
      .given([])
      .when({ ...create, charity: { ...charity, status: 'rejected' } })
      .thenFails('not_found', 'Charity not found');
  });

  it('refuses a shirt that does not exist', () => {
    spec
      .given([])
      .when({ ...create, shirt: null })
      .thenFails('not_found', 'Shirt not found');
  });

  it('refuses to create the same fundraiser twice', () => {
    spec.given([created]).when(create).thenFails('conflict', 'Fundraiser already exists');
  });

  it('answers a retry under its Idempotency-Key with nothing new, and another request under it with a conflict', () => {
    const retry = { ...create, retry: true } as const;
    spec.given([]).when(retry).then([created]);
    spec.given([created]).when(retry).then([]);
    spec
      .given([created])
      .when({ ...retry, name: '  Scan Me Maybe ' })
      .then([]);
    const conflict = 'This Idempotency-Key was used for another fundraiser: use a new key';
    spec
      .given([created])
      .when({ ...retry, name: 'Another name' })
      .thenFails('conflict', conflict);
    spec
      .given([created])
      .when({ ...retry, shirt: { ...shirt, shirtId: 'other-shirt' } })
      .thenFails('conflict', conflict);
    spec
      .given([created])
      .when({ ...retry, charity: { ...charity, charityId: 'other-charity' } })
      .thenFails('conflict', conflict);
    spec
      .given([created])
      .when({ ...retry, userId: 'user-2' })
      .thenFails('conflict', conflict);
  });
});

describe('fundraiser decider: streams written before donations had streams of their own', () => {
  it('reads their DonationRecorded events and still knows the fundraiser', () => {
    const state = foldEvents(fundraiserDecider, [created, legacyDonation(2500, 'key-1'), legacyDonation(100)]);
    expect(state).toEqual({
      fundraiserId: 'f-1',
      userId: 'user-1',
      charityId: 'givedirectly',
      shirtId: 'scan-me-maybe',
      name: 'Scan Me Maybe',
      goalCents: null,
      shortCode: null,
      createdAt: T0,
    });
    spec
      .given([created, legacyDonation(2500)])
      .when({ type: 'CreateFundraiser', fundraiserId: 'f-1', userId: 'user-2', charity, shirt, at: T1 })
      .thenFails('conflict', 'Fundraiser already exists');
  });
});

describe('fundraiser decider: the owner changes their shirt', () => {
  const update = { type: 'UpdateFundraiser', userId: 'user-1', at: T1 } as const;
  const trees = { ...charity, charityId: 'trees' };

  it('changes the charity, naming the one it leaves, then the name and the goal, and nothing unchanged', () => {
    spec
      .given([created])
      .when({ ...update, charity: trees, name: ' Run for trees ', goalCents: 5000 })
      .then([
        {
          type: 'FundraiserCharityChanged',
          data: { fundraiserId: 'f-1', charityId: 'trees', previousCharityId: 'givedirectly', at: T1 },
        },
        { type: 'FundraiserRenamed', data: { fundraiserId: 'f-1', name: 'Run for trees', at: T1 } },
        { type: 'FundraiserGoalSet', data: { fundraiserId: 'f-1', goalCents: 5000, at: T1 } },
      ]);
    spec
      .given([created])
      .when({ ...update, charity, name: 'Scan Me Maybe', goalCents: null })
      .then([]);
  });

  it('removes a goal with null', () => {
    const goalSet: EventOf<'FundraiserGoalSet'> = {
      type: 'FundraiserGoalSet',
      data: { fundraiserId: 'f-1', goalCents: 5000, at: T0 },
    };
    spec
      .given([created, goalSet])
      .when({ ...update, goalCents: null })
      .then([{ type: 'FundraiserGoalSet', data: { fundraiserId: 'f-1', goalCents: null, at: T1 } }]);
  });

  it('refuses anyone but the owner, an unknown fundraiser, an unapproved charity and a goal out of bounds', () => {
    spec
      .given([created])
      .when({ ...update, userId: 'user-2', name: 'Mine' })
      .thenFails('forbidden', 'Only the owner of this fundraiser can change it');
    // A fundraiser waiting to be claimed has no owner, and an anonymous caller's "no owner" is not one.
    const unclaimed = { ...created, data: { ...created.data, userId: null } };
    spec
      .given([unclaimed])
      .when({ ...update, userId: null, goalCents: 100 })
      .thenFails('forbidden', 'Only the owner of this fundraiser can change it');
    spec
      .given([])
      .when({ ...update, name: 'Mine' })
      .thenFails('not_found', 'Fundraiser not found');
    spec
      .given([created])
      .when({ ...update, charity: { ...trees, status: 'pending' } })
      .thenFails('not_found', 'Charity not found');
    spec
      .given([created])
      .when({ ...update, charity: null })
      .thenFails('not_found', 'Charity not found');
    spec
      .given([created])
      .when({ ...update, goalCents: 100_000_001 })
      .thenFails('validation', 'goal must be between $0 and $1,000,000');
    spec
      .given([created])
      .when({ ...update, goalCents: -1 })
      .thenFails('validation', 'goal must be between $0 and $1,000,000');
  });
});
