import { describe, expect, it } from 'vitest';
import { apiSpecificationPerTest, type GivenEvent } from '../support/api-specification';
import { charityCreated, donationConfirmed, fundraiserCreated, shirtAdded } from '../support/given';
import { anonymousToken, userToken } from '../support/test-server';

const api = apiSpecificationPerTest({ clock: () => new Date('2026-03-02T09:00:00.000Z') });

const catalogue = [
  charityCreated('water'),
  charityCreated('trees', 'Trees Again'),
  charityCreated('pending', 'Not Yet', { status: 'pending' }),
  shirtAdded('scan-me'),
];
const ada = userToken('ada');
const adasShirt = fundraiserCreated('f1', { userId: 'ada' });

const countedScan = (scanId: string, at: string): GivenEvent => ({
  stream: 'scans-p0',
  type: 'ScanRecorded',
  data: { scanId, fundraiserId: 'f1', at, visitorHash: scanId, addressHash: scanId, bot: false, counted: true },
});

const charityChanged = (charityId: string, previousCharityId: string, at: string): GivenEvent => ({
  stream: 'fundraiser-f1',
  type: 'FundraiserCharityChanged',
  data: { fundraiserId: 'f1', charityId, previousCharityId, at },
});

describe('PATCH /api/fundraisers/{id}', () => {
  it("changes the owner's name, charity and goal, one event for each", async () => {
    await api
      .given(...catalogue, adasShirt)
      .when('PATCH', '/api/fundraisers/f1', {
        token: ada,
        body: { name: '  Ada runs for trees ', charityId: 'trees', goal: 250.5 },
      })
      .then({
        status: 200,
        body: { id: 'f1', name: 'Ada runs for trees', charityId: 'trees', goal: 250.5, amountRaised: 0, owned: true },
        events: [
          { type: 'FundraiserCharityChanged', data: { charityId: 'trees', previousCharityId: 'water' } },
          { type: 'FundraiserRenamed', data: { name: 'Ada runs for trees' } },
          { type: 'FundraiserGoalSet', data: { goalCents: 25050 } },
        ],
      });
    await api
      .given()
      .when('GET', '/api/fundraisers/f1')
      .then({ status: 200, body: { name: 'Ada runs for trees', charityId: 'trees', goal: 250.5 } });
  });

  it('appends nothing for what is unchanged, and removes the goal with null', async () => {
    const goalSet: GivenEvent = {
      stream: 'fundraiser-f1',
      type: 'FundraiserGoalSet',
      data: { fundraiserId: 'f1', goalCents: 10000, at: '2026-03-01T11:00:00.000Z' },
    };
    await api
      .given(...catalogue, adasShirt, goalSet)
      .when('PATCH', '/api/fundraisers/f1', { token: ada, body: { charityId: 'water', name: 'My shirt' } })
      .then({ status: 200, body: { goal: 100 }, events: [] });
    await api
      .given()
      .when('PATCH', '/api/fundraisers/f1', { token: ada, body: { goal: null } })
      .then({ status: 200, body: { goal: null }, events: [{ type: 'FundraiserGoalSet', data: { goalCents: null } }] });
  });

  it('refuses anyone but the owner with 403, and no token with 401', async () => {
    await api
      .given(...catalogue, adasShirt)
      .when('PATCH', '/api/fundraisers/f1', { token: userToken('bob'), body: { name: 'Mine now' } })
      .then({ status: 403, body: { error: 'Only the owner of this fundraiser can change it' }, events: [] });
    await api
      .given()
      .when('PATCH', '/api/fundraisers/f1', { token: anonymousToken('visitor'), body: { goal: 5 } })
      .then({ status: 403, events: [] });
    await api
      .given()
      .when('PATCH', '/api/fundraisers/f1', { body: { name: 'Mine now' } })
      .then({ status: 401, events: [] });
  });

  it('refuses a negative goal, or one above $1,000,000, with 400', async () => {
    await api
      .given(...catalogue, adasShirt)
      .when('PATCH', '/api/fundraisers/f1', { token: ada, body: { goal: -1 } })
      .then({ status: 400, body: { error: expect.stringContaining('goal must not be negative') }, events: [] });
    await api
      .given()
      .when('PATCH', '/api/fundraisers/f1', { token: ada, body: { goal: 1_000_000.01 } })
      .then({ status: 400, body: { error: expect.stringContaining('goal must be at most $1,000,000') }, events: [] });
    await api
      .given()
      .when('PATCH', '/api/fundraisers/f1', { token: ada, body: { goal: '100' } })
      .then({ status: 400, events: [] });
  });

  it('refuses an unknown fundraiser, and an unknown or unapproved charity, with 404', async () => {
    await api
      .given(...catalogue, adasShirt)
      .when('PATCH', '/api/fundraisers/nope', { token: ada, body: { name: 'Nope' } })
      .then({ status: 404, body: { error: 'Fundraiser not found' }, events: [] });
    await api
      .given()
      .when('PATCH', '/api/fundraisers/f1', { token: ada, body: { charityId: 'no-such-charity' } })
      .then({ status: 404, body: { error: 'Charity not found' }, events: [] });
    await api
      .given()
      .when('PATCH', '/api/fundraisers/f1', { token: ada, body: { charityId: 'pending', name: 'Half' } })
      .then({ status: 404, body: { error: 'Charity not found' }, events: [] });
  });

  it('keeps what was raised before a change of charity with the charity it was raised for', async () => {
    await api
      .given(
        ...catalogue,
        adasShirt,
        countedScan('s1', '2026-03-01T10:05:00.000Z'),
        donationConfirmed('f1', 'd1', 1000),
        charityChanged('trees', 'water', '2026-03-01T12:00:00.000Z'),
        countedScan('s2', '2026-03-01T12:05:00.000Z'),
        countedScan('s3', '2026-03-01T12:06:00.000Z'),
        donationConfirmed('f1', 'd2', 250),
      )
      .when('PATCH', '/api/fundraisers/f1', { token: ada, body: { charityId: 'water' } })
      .then({ status: 200, body: { charityId: 'water', amountRaised: 12.5 } });
    await api
      .given()
      .when('GET', '/api/fundraisers/f1/stats', { token: ada })
      .then({
        status: 200,
        body: {
          scans: 3,
          donations: 2,
          amountRaised: 12.5,
          // water before and after trees: one line, where it first appeared
          byCharity: [
            { charityId: 'water', scans: 1, donations: 1, amountRaised: 10 },
            { charityId: 'trees', scans: 2, donations: 1, amountRaised: 2.5 },
          ],
        },
      });
  });
});

describe('GET /api/fundraisers/{id}', () => {
  it('answers the goal (null when there is none) and the confirmed money raised', async () => {
    await api
      .given(...catalogue, adasShirt, donationConfirmed('f1', 'd1', 1999))
      .when('GET', '/api/fundraisers/f1')
      .then({ status: 200, body: { id: 'f1', charityId: 'water', goal: null, amountRaised: 19.99 } });
  });

  it('answers 404 for an unknown fundraiser', async () => {
    await api
      .given(...catalogue)
      .when('GET', '/api/fundraisers/nope')
      .then({ status: 404, body: { error: 'Fundraiser not found' } });
  });
});
