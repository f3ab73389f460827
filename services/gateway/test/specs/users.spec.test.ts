import { emailReservationStreamName } from '@qrshirt/core';
import { describe, expect, it } from 'vitest';
import { apiSpecificationPerTest, type GivenEvent, lookupKeys } from '../support/api-specification';
import { charityCreated, donationRecorded, fundraiserCreated, shirtAdded, userRegistered } from '../support/given';
import { anonymousToken, userToken } from '../support/test-server';

const api = apiSpecificationPerTest();

/** Sign-up reserved Ada's address, and her registration was lost (a crash in between). */
const adaReserved: GivenEvent = {
  stream: emailReservationStreamName(lookupKeys, 'ada@example.org'),
  type: 'EmailReserved',
  data: { userId: 'ada', at: '2026-03-01T10:00:00.000Z' },
};

describe('POST /api/user', () => {
  it('registers a user on their first sync and updates the profile on the next', async () => {
    const token = userToken('ada');
    await api
      .given(adaReserved)
      .when('POST', '/api/user', { token, body: { uid: 'ada', displayName: 'Ada', email: 'ada@example.org' } })
      .then({
        status: 200,
        body: { uid: 'ada', displayName: 'Ada', email: 'ada@example.org', photoURL: null },
        events: [{ stream: 'user-ada', type: 'UserRegistered', data: { displayName: 'Ada', method: 'password' } }],
      });
    await api
      .given()
      .when('POST', '/api/user', { token, body: { uid: 'ada', displayName: 'Ada L.', email: 'ada@example.org' } })
      .then({ status: 200, body: { displayName: 'Ada L.' }, events: [{ type: 'UserProfileUpdated' }] });
  });

  it('never changes the address: another one is refused with nothing recorded, the account’s own in any case is kept', async () => {
    const token = userToken('ada');
    const refusal = {
      status: 409,
      body: {
        error:
          'Your email address changes only by the link we mail to the new address: use Change email in Edit Profile',
      },
      events: [],
    };
    await api
      .given(userRegistered('ada', 'ada@example.org'))
      .when('POST', '/api/user', { token, body: { uid: 'ada', displayName: 'Mallory', email: 'mine@example.net' } })
      .then(refusal);
    await api
      .given()
      .when('POST', '/api/user', { token, body: { uid: 'ada', displayName: 'Ada L.', email: 'ADA@Example.org' } })
      .then({ status: 200, body: { displayName: 'Ada L.', email: 'ada@example.org' } });
    await api
      .given()
      .when('POST', '/api/user', { token, body: { uid: 'ada', displayName: 'Ada', email: null } })
      .then({ status: 200, body: { displayName: 'Ada', email: 'ada@example.org' } });
    // A first sync may name only an address reserved for this account.
    await api
      .given()
      .when('POST', '/api/user', { token: userToken('bob'), body: { uid: 'bob', email: 'ada@example.org' } })
      .then(refusal);
  });

  it('syncs only the caller’s own profile', async () => {
    await api
      .given()
      .when('POST', '/api/user', { token: userToken('ada'), body: { uid: 'bob' } })
      .then({ status: 403, body: { error: 'You can only sync your own profile' }, events: [] });
  });
});

describe('GET and PATCH /api/user/{id}', () => {
  it('shows and changes the user’s own profile, and refuses everyone else', async () => {
    await api
      .given(userRegistered('ada', 'ada@example.org'))
      .when('PATCH', '/api/user/ada', { token: userToken('ada'), body: { displayName: 'Countess' } })
      .then({ status: 200, body: { uid: 'ada', displayName: 'Countess', email: 'ada@example.org' } });
    await api
      .given()
      .when('GET', '/api/user/ada', { token: userToken('bob') })
      .then({ status: 403, body: { error: 'You can only access your own account' } });
    await api
      .given()
      .when('GET', '/api/user/ada', { token: anonymousToken('ada') })
      .then({ status: 403, body: { error: 'You can only access your own account' } });
  });

  it('turns the daily summary mail on and off, recording only a change', async () => {
    const token = userToken('ada');
    await api
      .given(userRegistered('ada', 'ada@example.org'))
      .when('PATCH', '/api/user/ada', { token, body: { dailySummary: true } })
      .then({
        status: 200,
        body: { uid: 'ada', dailySummary: true },
        events: [{ stream: 'user-ada', type: 'DailySummarySet', data: { enabled: true, via: 'profile' } }],
      });
    await api
      .given(userRegistered('ada', 'ada@example.org'))
      .when('PATCH', '/api/user/ada', { token, body: { dailySummary: false } })
      .then({ status: 200, body: { dailySummary: false }, events: [] });
  });

  it('refuses a change that changes nothing', async () => {
    await api
      .given(userRegistered('ada'))
      .when('PATCH', '/api/user/ada', { token: userToken('ada'), body: {} })
      .then({ status: 400, body: { error: 'nothing to update' }, events: [] });
  });
});

describe('GET /api/user/{id}/stats', () => {
  it('adds up the user’s fundraisers', async () => {
    await api
      .given(
        charityCreated('water'),
        shirtAdded('scan-me'),
        fundraiserCreated('f1', { userId: 'ada' }),
        fundraiserCreated('f2', { userId: 'ada' }),
        fundraiserCreated('f3', { userId: 'bob' }),
        donationRecorded('f1', 'd1', 500),
        donationRecorded('f2', 'd2', 700),
        donationRecorded('f3', 'd3', 10_000),
      )
      .when('GET', '/api/user/ada/stats', { token: userToken('ada') })
      .then({ status: 200, body: { totalImpact: 12, shirtsOwned: 2, totalScans: 0 } });
  });
});

describe('GET /api/user/{id}/export', () => {
  it('counts strangers’ donations in the figures, and leaves the donations themselves out of the events', async () => {
    const { answer } = await api
      .given(
        userRegistered('ada', 'ada@example.org'),
        fundraiserCreated('f1', { userId: 'ada' }),
        donationRecorded('f1', 'donation-of-a-stranger', 500, 'stranger-client-key'),
        fundraiserCreated('f3', { userId: 'bob' }),
      )
      .when('GET', '/api/user/ada/export', { token: userToken('ada') })
      .then({
        status: 200,
        body: {
          profile: { uid: 'ada', email: 'ada@example.org', emailVerified: false },
          signInMethods: [],
          fundraisers: { totalImpact: 5, shirtsOwned: 1 },
          waitlistEntries: [],
          events: [
            { stream: 'user-ada', type: 'UserRegistered', data: { email: 'ada@example.org' } },
            { stream: 'fundraiser-f1', type: 'FundraiserCreated', data: { userId: 'ada' } },
          ],
        },
        events: [],
      });
    expect(answer.body.events).toHaveLength(2);
    for (const foreign of ['donation-of-a-stranger', 'stranger-client-key', 'f3', 'bob'])
      expect(JSON.stringify(answer.body), foreign).not.toContain(foreign);
  });
});

describe('an account whose profile names an address it never proved', () => {
  // Profiles synced before the sync was refused could name anyone's address: here the address of
  // Vera, who joined the waitlist with it and holds it, verified.
  const at = '2026-03-01T10:00:00.000Z';
  const vera = 'vera@example.org';
  const history: GivenEvent[] = [
    { stream: emailReservationStreamName(lookupKeys, vera), type: 'EmailReserved', data: { userId: 'vera', at } },
    {
      stream: emailReservationStreamName(lookupKeys, vera),
      type: 'EmailVerified',
      data: { userId: 'vera', via: 'link', at },
    },
    userRegistered('mallory', vera),
    {
      stream: `waitlist-scan-me.k-${'b'.repeat(64)}`,
      type: 'WaitlistJoined',
      data: { entryId: 'e-vera', shirtId: 'scan-me', name: 'Vera', email: vera, size: 'M', charityId: 'water', at },
    },
  ];

  it('neither shows its person the signups made with that address, nor proves it', async () => {
    await api
      .given(...history)
      .when('GET', '/api/user/mallory/export', { token: userToken('mallory') })
      .then({ status: 200, body: { profile: { email: vera, emailVerified: false }, waitlistEntries: [] } });
  });

  it('closes without removing those signups or freeing the address', async () => {
    const signedInNow: GivenEvent = {
      stream: 'user-mallory',
      type: 'UserSignedIn',
      data: { userId: 'mallory', method: 'phone', at: new Date().toISOString() },
    };
    await api
      .given(...history, signedInNow)
      .when('DELETE', '/api/user/mallory', { token: userToken('mallory'), body: {} })
      .then({ status: 204, events: [{ stream: 'user-mallory', type: 'UserAccountClosed' }] });
  });
});
