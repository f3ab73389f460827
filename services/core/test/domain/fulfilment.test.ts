import type { EventData, EventOf } from '@qrshirt/contracts';
import { describe, expect, it } from 'vitest';
import { foldEvents } from '../../src/kit/fold-events';
import {
  ENTRY_ERASED,
  type FulfilEntry,
  fulfilmentDecider,
  type ReissueClaimLink,
} from '../../src/fulfilment/fulfilment-decider';
import { deciderSpec } from './decider-spec';
import { T0, T1 } from './fixtures';

const spec = deciderSpec(fulfilmentDecider);

const entry: EventData<'WaitlistJoined'> = {
  entryId: 'entry-1',
  shirtId: 'scan-me-maybe',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  size: 'M',
  charityId: 'givedirectly',
  at: T0,
};
const fulfil: FulfilEntry = {
  type: 'FulfilEntry',
  entry,
  fundraiserId: 'ada-shirt',
  claimTokenHash: 'hash-1',
  claimExpiresAt: '2025-03-31T10:00:00.000Z',
  removeTokenHash: 'removal-1',
  at: T0,
};
const fulfilled: EventOf<'WaitlistEntryFulfilled'> = {
  type: 'WaitlistEntryFulfilled',
  data: {
    entryId: 'entry-1',
    fundraiserId: 'ada-shirt',
    shirtId: 'scan-me-maybe',
    size: 'M',
    charityId: 'givedirectly',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    claimTokenHash: 'hash-1',
    claimExpiresAt: '2025-03-31T10:00:00.000Z',
    removeTokenHash: 'removal-1',
    at: T0,
  },
};
const reissue: ReissueClaimLink = {
  type: 'ReissueClaimLink',
  claimed: false,
  claimTokenHash: 'hash-2',
  claimExpiresAt: '2025-03-31T11:00:00.000Z',
  removeTokenHash: 'removal-2',
  at: T1,
};
const reissued: EventOf<'ClaimLinkReissued'> = {
  type: 'ClaimLinkReissued',
  data: {
    entryId: 'entry-1',
    claimTokenHash: 'hash-2',
    claimExpiresAt: '2025-03-31T11:00:00.000Z',
    removeTokenHash: 'removal-2',
    at: T1,
  },
};
/** As the command side reads the fulfilment once its person removed the entry: their key is gone. */
const erased: EventOf<'WaitlistEntryFulfilled'> = {
  ...fulfilled,
  data: { ...fulfilled.data, name: null, email: null },
};

describe('fulfilment decider', () => {
  it("fulfils an entry once, copying who joined and keeping only the claim link's hash", () => {
    spec.given([]).when(fulfil).then([fulfilled]);
    spec.given([fulfilled]).when(fulfil).thenFails('conflict', 'This waitlist entry has been fulfilled already');
    spec
      .given([])
      .when({ ...fulfil, entry: null })
      .thenFails('not_found', 'Waitlist entry not found');
  });

  it('reissues the claim link of a fulfilled entry nobody claimed, any number of times', () => {
    spec.given([fulfilled]).when(reissue).then([reissued]);
    spec
      .given([fulfilled, reissued])
      .when({ ...reissue, claimTokenHash: 'hash-3' })
      .then([{ type: 'ClaimLinkReissued', data: { ...reissued.data, claimTokenHash: 'hash-3' } }]);
  });

  it('refuses a new link for an entry not fulfilled, or whose shirt has an owner', () => {
    spec.given([]).when(reissue).thenFails('not_found', 'This waitlist entry has not been fulfilled');
    spec
      .given([fulfilled])
      .when({ ...reissue, claimed: true })
      .thenFails('conflict', "This entry's shirt has been claimed already");
  });

  it('keeps only the newest claim link (the one a claim is checked against), and every removal link', () => {
    expect(foldEvents(fulfilmentDecider, [fulfilled, reissued])).toEqual({
      ...fulfilled.data,
      claimTokenHash: 'hash-2',
      claimExpiresAt: '2025-03-31T11:00:00.000Z',
      removeTokenHashes: ['removal-1', 'removal-2'],
    });
  });

  it('neither fulfils nor mails a new link to an entry whose person removed it', () => {
    spec
      .given([])
      .when({ ...fulfil, entry: { ...entry, name: null, email: null } })
      .thenFails('gone', ENTRY_ERASED);
    spec.given([erased]).when(reissue).thenFails('gone', ENTRY_ERASED);
  });
});
