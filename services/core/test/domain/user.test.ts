import type { EventOf } from '@qrshirt/contracts';
import { describe, expect, it } from 'vitest';
import { foldEvents } from '../../src/event-sourcing/fold-events';
import { type RegisterUser, userDecider } from '../../src/users/user-decider';
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

  it('refuses to register the same user twice', () => {
    spec.given([registered]).when(register).thenFails('conflict', 'User already registered');
  });

  it('records only the profile fields that change', () => {
    spec
      .given([registered])
      .when({ type: 'UpdateProfile', userId: 'u-1', displayName: 'Ada L.', email: 'ada@example.com', at: T1 })
      .then([{ type: 'UserProfileUpdated', data: { userId: 'u-1', displayName: 'Ada L.', at: T1 } }]);
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
      displayName: 'Ada',
      photoURL: 'https://example.com/a.png',
      registeredWith: 'password',
      registeredAt: T0,
      lastSignInAt: T1,
      lastSignInMethod: 'google',
    });
  });
});
