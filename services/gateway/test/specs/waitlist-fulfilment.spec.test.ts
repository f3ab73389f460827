import { createHash } from 'node:crypto';
import { emailReservationStreamName, shortCodeCandidate } from '@qrshirt/core';
import { describe, expect, it } from 'vitest';
import { apiSpecificationPerTest, type GivenEvent, lookupKeys } from '../support/api-specification';
import { charityCreated, shirtAdded, userRegistered } from '../support/given';
import { shortCodeEvents } from '../support/short-codes';
import { userToken } from '../support/test-server';

const NOW = '2026-03-10T10:00:00.000Z';
const api = apiSpecificationPerTest({ env: { ADMIN_EMAILS: 'olga@example.org' }, clock: () => new Date(NOW) });

const at = '2026-03-01T10:00:00.000Z';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const TOKEN = 'e1.the-secret-of-the-link-mailed-to-wren';

/** A user whose address is theirs: registered, reserved and verified by a mailed link. */
const verifiedUser = (userId: string, email: string): GivenEvent[] => [
  userRegistered(userId, email),
  { stream: emailReservationStreamName(lookupKeys, email), type: 'EmailReserved', data: { userId, at } },
  { stream: emailReservationStreamName(lookupKeys, email), type: 'EmailVerified', data: { userId, via: 'link', at } },
];

const catalogue = [charityCreated('water'), shirtAdded('scan-me', 'Scan Me Maybe', ['S', 'M'])];
const admin = verifiedUser('olga', 'olga@example.org');
const joined: GivenEvent = {
  stream: `waitlist-scan-me.k-${'a'.repeat(64)}`,
  type: 'WaitlistJoined',
  data: {
    entryId: 'e1',
    shirtId: 'scan-me',
    name: 'Wren',
    email: 'Wren@Example.org',
    size: 'M',
    charityId: 'water',
    at,
  },
};
const fulfilled: GivenEvent = {
  stream: 'fulfilment-e1',
  type: 'WaitlistEntryFulfilled',
  data: {
    entryId: 'e1',
    fundraiserId: 'wren-shirt',
    shirtId: 'scan-me',
    size: 'M',
    charityId: 'water',
    name: 'Wren',
    email: 'Wren@Example.org',
    claimTokenHash: sha256(TOKEN),
    claimExpiresAt: '2026-03-31T10:00:00.000Z',
    at,
  },
};
const unowned: GivenEvent = {
  stream: 'fundraiser-wren-shirt',
  type: 'FundraiserCreated',
  data: {
    fundraiserId: 'wren-shirt',
    userId: null,
    charityId: 'water',
    shirtId: 'scan-me',
    name: 'Scan Me Maybe',
    entryId: 'e1',
    at,
  },
};
const claimedBy = (userId: string): GivenEvent => ({
  stream: 'fundraiser-wren-shirt',
  type: 'FundraiserClaimed',
  data: { fundraiserId: 'wren-shirt', userId, entryId: 'e1', at },
});

describe('POST /api/admin/waitlist/entries/{entryId}/fulfil', () => {
  it('records the fulfilment with the hash of the claim link, then a fundraiser owned by nobody', async () => {
    const { answer } = await api
      .given(...catalogue, ...admin, joined)
      .when('POST', '/api/admin/waitlist/entries/e1/fulfil', { token: userToken('olga') })
      .then({
        status: 201,
        body: {
          entryId: 'e1',
          status: 'fulfilled',
          fundraiser: { userId: null, shirtId: 'scan-me', charityId: 'water' },
        },
        events: [
          {
            stream: 'fulfilment-e1',
            type: 'WaitlistEntryFulfilled',
            data: { entryId: 'e1', email: 'Wren@Example.org', claimExpiresAt: '2026-04-09T10:00:00.000Z' },
          },
          { type: 'FundraiserCreated', data: { userId: null, entryId: 'e1', name: 'Scan Me Maybe' } },
          ...shortCodeEvents(),
        ],
      });
    const { id } = answer.body.fundraiser;
    expect(id).toMatch(/^[a-z2-9]{10}$/);
    expect(answer.body.qr).toEqual({
      svg: `/api/fundraisers/${id}/qr.svg`,
      png: `/api/fundraisers/${id}/qr.png`,
      target: expect.stringMatching(new RegExp(`/q/${shortCodeCandidate(id, 0)}$`)),
    });
  });

  it('refuses a second fulfilment, an unknown entry and anyone but an admin, recording nothing', async () => {
    await api
      .given(...catalogue, ...admin, joined, fulfilled, unowned)
      .when('POST', '/api/admin/waitlist/entries/e1/fulfil', { token: userToken('olga') })
      .then({ status: 409, body: { error: 'This waitlist entry has been fulfilled already' }, events: [] });
    await api
      .given()
      .when('POST', '/api/admin/waitlist/entries/e2/fulfil', { token: userToken('olga') })
      .then({ status: 404, body: { error: 'Waitlist entry not found' }, events: [] });
    await api
      .given(...verifiedUser('mia', 'mia@example.org'))
      .when('POST', '/api/admin/waitlist/entries/e1/fulfil', { token: userToken('mia') })
      .then({ status: 403, events: [] });
  });
});

describe('POST /api/admin/waitlist/entries/{entryId}/claim-link', () => {
  it('replaces the claim link of a fulfilled entry nobody claimed with a new one, good for 30 days from now', async () => {
    await api
      .given(...catalogue, ...admin, joined, fulfilled, unowned)
      .when('POST', '/api/admin/waitlist/entries/e1/claim-link', { token: userToken('olga') })
      .then({
        status: 200,
        body: { entryId: 'e1', status: 'fulfilled', fundraiser: { id: 'wren-shirt', userId: null } },
        events: [
          {
            stream: 'fulfilment-e1',
            type: 'ClaimLinkReissued',
            data: { entryId: 'e1', claimExpiresAt: '2026-04-09T10:00:00.000Z', at: NOW },
          },
          // Made before short codes, it gets its code now, by events of its own.
          ...shortCodeEvents('wren-shirt'),
        ],
      });
  });

  it('makes the fundraiser a fulfilment stopped short of, before the new link', async () => {
    await api
      .given(...catalogue, ...admin, joined, fulfilled)
      .when('POST', '/api/admin/waitlist/entries/e1/claim-link', { token: userToken('olga') })
      .then({
        status: 200,
        body: { fundraiser: { id: 'wren-shirt', userId: null, shirtId: 'scan-me', charityId: 'water' } },
        events: [
          { stream: 'fundraiser-wren-shirt', type: 'FundraiserCreated', data: { userId: null, entryId: 'e1' } },
          { stream: 'fulfilment-e1', type: 'ClaimLinkReissued', data: { entryId: 'e1' } },
          ...shortCodeEvents('wren-shirt'),
        ],
      });
  });

  it('refuses a claimed entry, one not fulfilled and anyone but an admin, recording nothing', async () => {
    await api
      .given(...catalogue, ...admin, joined, fulfilled, unowned, claimedBy('wren'))
      .when('POST', '/api/admin/waitlist/entries/e1/claim-link', { token: userToken('olga') })
      .then({ status: 409, body: { error: "This entry's shirt has been claimed already" }, events: [] });
    await api
      .given()
      .when('POST', '/api/admin/waitlist/entries/e2/claim-link', { token: userToken('olga') })
      .then({ status: 404, body: { error: 'This waitlist entry has not been fulfilled' }, events: [] });
    await api
      .given(...verifiedUser('mia', 'mia@example.org'))
      .when('POST', '/api/admin/waitlist/entries/e1/claim-link', { token: userToken('mia') })
      .then({ status: 403, events: [] });
  });
});

describe('POST /api/admin/waitlist/fulfil', () => {
  it('answers an unknown shirt, and a size nobody waits for, with 404', async () => {
    await api
      .given(...catalogue, ...admin, joined)
      .when('POST', '/api/admin/waitlist/fulfil', { token: userToken('olga'), body: { shirtId: 'scan-me', size: 'S' } })
      .then({ status: 404, body: { error: 'No entry for Scan Me Maybe in size S is waiting' }, events: [] });
    await api
      .given()
      .when('POST', '/api/admin/waitlist/fulfil', { token: userToken('olga'), body: { shirtId: 'nope', size: 'S' } })
      .then({ status: 404, body: { error: 'Shirt not found' }, events: [] });
    await api
      .given()
      .when('POST', '/api/admin/waitlist/fulfil', { token: userToken('olga'), body: { shirtId: 'scan-me' } })
      .then({ status: 400, events: [] });
  });
});

describe('POST /api/claims', () => {
  it("makes the entry's person, verified in any case of the address, the owner", async () => {
    await api
      .given(...catalogue, joined, fulfilled, unowned, ...verifiedUser('wren', 'wren@example.ORG'))
      .when('POST', '/api/claims', { token: userToken('wren'), body: { token: TOKEN } })
      .then({
        status: 201,
        body: { id: 'wren-shirt', userId: 'wren' },
        events: [
          { stream: 'fundraiser-wren-shirt', type: 'FundraiserClaimed', data: { userId: 'wren', entryId: 'e1' } },
        ],
      });
  });

  it('refuses another address, a used link and a wrong secret, recording nothing', async () => {
    await api
      .given(...catalogue, joined, fulfilled, unowned, ...verifiedUser('mia', 'mia@example.org'))
      .when('POST', '/api/claims', { token: userToken('mia'), body: { token: TOKEN } })
      .then({ status: 403, events: [] });
    await api
      .given()
      .when('POST', '/api/claims', { token: userToken('mia'), body: { token: 'e1.guessed' } })
      .then({ status: 404, events: [] });
    await api
      .given(claimedBy('wren'))
      .when('POST', '/api/claims', { token: userToken('mia'), body: { token: TOKEN } })
      .then({ status: 409, body: { error: 'This claim link has been used already' }, events: [] });
  });

  it("answers its claimant's claim again (a retry whose answer was lost) as the first, recording nothing", async () => {
    await api
      .given(...catalogue, joined, fulfilled, unowned, claimedBy('wren'))
      .when('POST', '/api/claims', { token: userToken('wren'), body: { token: TOKEN } })
      .then({ status: 200, body: { id: 'wren-shirt', userId: 'wren' }, events: [] });
  });
});
