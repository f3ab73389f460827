import type { EventOf } from '@qrshirt/contracts';
import { describe, expect, it } from 'vitest';
import { foldEvents } from '../../src/event-sourcing/fold-events';
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
      .when({ ...create, charity: { ...charity, status: 'rejected', rejectionReason: 'No.' } })
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
      createdAt: T0,
    });
    spec
      .given([created, legacyDonation(2500)])
      .when({ type: 'CreateFundraiser', fundraiserId: 'f-1', userId: 'user-2', charity, shirt, at: T1 })
      .thenFails('conflict', 'Fundraiser already exists');
  });
});
