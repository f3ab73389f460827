import type { EventOf } from '@qrshirt/contracts';
import { describe, expect, it } from 'vitest';
import { foldEvents } from '../../src/kit/fold-events';
import { EMAIL_CHANGES_BY_LINK, type RegisterUser, userDecider } from '../../src/users/user-decider';
import { deciderSpec } from './decider-spec';
import { T0, T1 } from './fixtures';

const spec = deciderSpec(userDecider);

const register: RegisterUser = {
  type: 'RegisterUser',
  userId: 'u-1',
  email: 'ada@example.com',
  displayName: 'Ada',
  photoURL: null,
  method: 'password',
  at: T0,
};

const registered: EventOf<'UserRegistered'> = {
  type: 'UserRegistered',
  data: { userId: 'u-1', email: 'ada@example.com', displayName: 'Ada', photoURL: null, method: 'password', at: T0 },
};

describe('user decider', () => {
  it('registers a user', () => {
    spec.given([]).when(register).then([registered]);
  });

  it('closes an account once, after which it takes no command and names nobody', () => {
    const closed = { type: 'UserAccountClosed', data: { userId: 'u-1', by: 'admin', adminId: 'u-9', at: T1 } } as const;
    spec
      .given([registered])
      .when({ type: 'CloseAccount', userId: 'u-1', by: 'admin', adminId: 'u-9', at: T1 })
      .then([closed]);
    spec
      .given([registered, closed])
      .when({ type: 'CloseAccount', userId: 'u-1', by: 'self', at: T1 })
      .thenFails('not_found', 'User not found');
    spec
      .given([])
      .when({ type: 'CloseAccount', userId: 'u-1', by: 'self', at: T1 })
      .thenFails('not_found', 'User not found');
    for (const command of [
      { type: 'UpdateProfile', userId: 'u-1', displayName: 'Back', at: T1 },
      { type: 'ChangeEmail', userId: 'u-1', email: 'back@example.com', at: T1 },
      { type: 'RecordSignIn', userId: 'u-1', method: 'password', at: T1 },
      { type: 'StopDailySummary', userId: 'u-1', at: T1 },
    ] as const) {
      spec.given([registered, closed]).when(command).thenFails('not_found', 'User not found');
    }
    spec.given([registered, closed]).when(register).thenFails('conflict', 'User already registered');
  });

  it('refuses to register the same user twice', () => {
    spec.given([registered]).when(register).thenFails('conflict', 'User already registered');
  });

  it('records only the profile fields that change', () => {
    spec
      .given([registered])
      .when({ type: 'UpdateProfile', userId: 'u-1', displayName: 'Ada L.', expectedEmail: ' ADA@example.com', at: T1 })
      .then([{ type: 'UserProfileUpdated', data: { userId: 'u-1', displayName: 'Ada L.', at: T1 } }]);
  });

  it('refuses a profile update that names another address than the account’s, changing nothing', () => {
    spec
      .given([registered])
      .when({ type: 'UpdateProfile', userId: 'u-1', displayName: 'Ada L.', expectedEmail: 'mine@example.com', at: T1 })
      .thenFails('conflict', EMAIL_CHANGES_BY_LINK);
    const withoutAddress = { ...registered, data: { ...registered.data, email: null } };
    spec
      .given([withoutAddress])
      .when({ type: 'UpdateProfile', userId: 'u-1', expectedEmail: 'ada@example.com', at: T1 })
      .thenFails('conflict', EMAIL_CHANGES_BY_LINK);
  });

  it('moves the account to a new address, once, remembering the one it had', () => {
    const moved: EventOf<'UserProfileUpdated'> = {
      type: 'UserProfileUpdated',
      data: { userId: 'u-1', email: 'countess@example.com', at: T1 },
    };
    spec
      .given([registered])
      .when({ type: 'ChangeEmail', userId: 'u-1', email: 'countess@example.com', at: T1 })
      .then([moved]);
    spec
      .given([registered, moved])
      .when({ type: 'ChangeEmail', userId: 'u-1', email: 'countess@example.com', at: T1 })
      .then([]);
    expect(foldEvents(userDecider, [registered, moved])).toMatchObject({
      email: 'countess@example.com',
      previousEmail: 'ada@example.com',
    });
    expect(
      foldEvents(userDecider, [registered, moved, { ...moved, data: { userId: 'u-1', displayName: 'C', at: T1 } }]),
    ).toMatchObject({ email: 'countess@example.com', previousEmail: 'ada@example.com' });
  });

  it('keeps the address it signed up with through a change of address: ADMIN_EMAILS counts only that one', () => {
    const moved = foldEvents(userDecider, [
      registered,
      { type: 'UserProfileUpdated', data: { userId: 'u-1', email: 'ops@example.org', at: T1 } },
    ]);
    expect(moved).toMatchObject({ email: 'ops@example.org', registeredEmail: 'ada@example.com' });
  });

  it('names an account an admin once, and a closed one never', () => {
    const granted = { type: 'AdminGranted', data: { userId: 'u-1', at: T1 } } as const;
    spec.given([registered]).when({ type: 'GrantAdmin', userId: 'u-1', at: T1 }).then([granted]);
    spec.given([registered, granted]).when({ type: 'GrantAdmin', userId: 'u-1', at: T1 }).then([]);
    expect(foldEvents(userDecider, [registered, granted])).toMatchObject({ adminGranted: true });
    spec
      .given([registered, { type: 'UserAccountClosed', data: { userId: 'u-1', by: 'self', at: T1 } }])
      .when({ type: 'GrantAdmin', userId: 'u-1', at: T1 })
      .thenFails('not_found', 'User not found');
  });

  it('records nothing for a profile sync that changes nothing', () => {
    spec.given([registered]).when({ type: 'UpdateProfile', userId: 'u-1', displayName: 'Ada', at: T1 }).then([]);
  });

  it('can clear the photo', () => {
    const withPhoto = { ...registered, data: { ...registered.data, photoURL: 'https://example.com/a.png' } };
    spec
      .given([withPhoto])
      .when({ type: 'UpdateProfile', userId: 'u-1', photoURL: null, at: T1 })
      .then([{ type: 'UserProfileUpdated', data: { userId: 'u-1', photoURL: null, at: T1 } }]);
  });

  it('refuses to update a user who is not registered', () => {
    spec
      .given([])
      .when({ type: 'UpdateProfile', userId: 'u-1', displayName: 'Ada', at: T1 })
      .thenFails('not_found', 'User not found');
  });

  it('records a sign-in of a registered user only', () => {
    spec
      .given([registered])
      .when({ type: 'RecordSignIn', userId: 'u-1', method: 'google', at: T1 })
      .then([{ type: 'UserSignedIn', data: { userId: 'u-1', method: 'google', at: T1 } }]);
    spec
      .given([])
      .when({ type: 'RecordSignIn', userId: 'u-1', method: 'google', at: T1 })
      .thenFails('not_found', 'User not found');
  });

  it('folds registration, profile changes and sign-ins', () => {
    const state = foldEvents(userDecider, [
      registered,
      { type: 'UserProfileUpdated', data: { userId: 'u-1', photoURL: 'https://example.com/a.png', at: T1 } },
      { type: 'UserSignedIn', data: { userId: 'u-1', method: 'google', at: T1 } },
    ]);
    expect(state).toEqual({
      userId: 'u-1',
      email: 'ada@example.com',
      previousEmail: null,
      registeredEmail: 'ada@example.com',
      adminGranted: false,
      displayName: 'Ada',
      photoURL: 'https://example.com/a.png',
      registeredWith: 'password',
      registeredAt: T0,
      lastSignInAt: T1,
      lastSignInMethod: 'google',
      dailySummary: false,
      closed: false,
    });
  });

  const optedIn: EventOf<'DailySummarySet'> = {
    type: 'DailySummarySet',
    data: { userId: 'u-1', enabled: true, via: 'profile', at: T0 },
  };

  it('records the daily summary choice from the profile, beside the profile fields, only when it changes', () => {
    spec
      .given([registered])
      .when({ type: 'UpdateProfile', userId: 'u-1', displayName: 'Ada L.', dailySummary: true, at: T0 })
      .then([{ type: 'UserProfileUpdated', data: { userId: 'u-1', displayName: 'Ada L.', at: T0 } }, optedIn]);
    spec
      .given([registered, optedIn])
      .when({ type: 'UpdateProfile', userId: 'u-1', dailySummary: true, at: T1 })
      .then([]);
    spec.given([registered]).when({ type: 'UpdateProfile', userId: 'u-1', dailySummary: false, at: T1 }).then([]);
  });

  it('stops the daily summary by the unsubscribe link once, and then records nothing more', () => {
    const stopped: EventOf<'DailySummarySet'> = {
      type: 'DailySummarySet',
      data: { userId: 'u-1', enabled: false, via: 'unsubscribe-link', at: T1 },
    };
    spec.given([registered, optedIn]).when({ type: 'StopDailySummary', userId: 'u-1', at: T1 }).then([stopped]);
    spec.given([registered, optedIn, stopped]).when({ type: 'StopDailySummary', userId: 'u-1', at: T1 }).then([]);
    spec.given([]).when({ type: 'StopDailySummary', userId: 'u-1', at: T1 }).thenFails('not_found', 'User not found');
    expect(foldEvents(userDecider, [registered, optedIn])?.dailySummary).toBe(true);
    expect(foldEvents(userDecider, [registered, optedIn, stopped])?.dailySummary).toBe(false);
  });
});
