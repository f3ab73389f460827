import type { EventData, EventOf } from '@qrshirt/contracts';
import { changedFields } from '../kit/changed-fields';
import { type Decider, DomainError } from '../kit/decider';
import { sameEmailAddress } from '../kit/email-address';

export type SignInMethod = EventData<'UserSignedIn'>['method'];

export interface UserProfile {
  email: string | null;
  displayName: string | null;
  photoURL: string | null;
}

export interface UserState extends UserProfile {
  userId: string;
  /**
   * The address the account had before its last change of address: a move whose last step (freeing
   * it) was cut short is finished from here, and closing the account frees it too.
   */
  previousEmail: string | null;
  /** The address the account signed up with (null for a phone's): `ADMIN_EMAILS` counts only this one. */
  registeredEmail: string | null;
  /** An operator named it an admin (`npm run admin -- grant`), whatever its address. */
  adminGranted: boolean;
  registeredWith: SignInMethod;
  registeredAt: string;
  lastSignInAt: string;
  lastSignInMethod: SignInMethod;
  /** The owner asked for the daily summary mail. */
  dailySummary: boolean;
  /** Closed by its person or an operator: nothing more happens to it. */
  closed: boolean;
}

export interface RegisterUser extends UserProfile {
  type: 'RegisterUser';
  userId: string;
  method: SignInMethod;
  at: string;
}

export interface UpdateProfile extends Partial<Pick<UserProfile, 'displayName' | 'photoURL'>> {
  type: 'UpdateProfile';
  userId: string;
  dailySummary?: boolean;
  /**
   * The address the caller takes to be the account's (the profile sync sends one): refused unless
   * it is, in any case. A profile update never changes the address: `ChangeEmail` does, once the
   * new address is proven.
   */
  expectedEmail?: string;
  at: string;
}

/** The account moves to an address it reserved and proved (followed the link mailed to it). */
export interface ChangeEmail {
  type: 'ChangeEmail';
  userId: string;
  email: string;
  at: string;
}

/** The unsubscribe link of a daily summary: no session, only the link's proof of the account. */
export interface StopDailySummary {
  type: 'StopDailySummary';
  userId: string;
  at: string;
}

export interface RecordSignIn {
  type: 'RecordSignIn';
  userId: string;
  method: SignInMethod;
  at: string;
}

export interface GrantAdmin {
  type: 'GrantAdmin';
  userId: string;
  at: string;
}

export interface CloseAccount {
  type: 'CloseAccount';
  userId: string;
  by: 'self' | 'admin';
  adminId?: string;
  at: string;
}

export type UserCommand =
  RegisterUser | UpdateProfile | ChangeEmail | StopDailySummary | RecordSignIn | GrantAdmin | CloseAccount;
export type UserEvent =
  | EventOf<'UserRegistered'>
  | EventOf<'UserProfileUpdated'>
  | EventOf<'DailySummarySet'>
  | EventOf<'UserSignedIn'>
  | EventOf<'AdminGranted'>
  | EventOf<'UserAccountClosed'>;

/** A closed account answers as one that never was: its user id names nobody any more. */
function openAccount(state: UserState | null): UserState {
  if (!state || state.closed) throw new DomainError('not_found', 'User not found');
  return state;
}

export const userStreamName = (userId: string): string => `user-${userId}`;

export const EMAIL_CHANGES_BY_LINK =
  'Your email address changes only by the link we mail to the new address: use Change email in Edit Profile';

export const userDecider: Decider<UserCommand, UserEvent, UserState | null> = {
  initialState: () => null,

  decide(command, state) {
    switch (command.type) {
      case 'RegisterUser': {
        if (state) throw new DomainError('conflict', 'User already registered');
        const { type: _type, ...registration } = command;
        return [{ type: 'UserRegistered', data: registration }];
      }
      case 'UpdateProfile': {
        const user = openAccount(state);
        const { expectedEmail, displayName, photoURL, dailySummary } = command;
        if (expectedEmail !== undefined && !sameEmailAddress(expectedEmail, user.email)) {
          throw new DomainError('conflict', EMAIL_CHANGES_BY_LINK);
        }
        const changes = changedFields<UserProfile>(user, { displayName, photoURL });
        // The client syncs the profile on every sign-in; an unchanged profile is not an error.
        const events: UserEvent[] =
          Object.keys(changes).length === 0
            ? []
            : [{ type: 'UserProfileUpdated', data: { ...changes, userId: user.userId, at: command.at } }];
        if (dailySummary !== undefined && dailySummary !== user.dailySummary) {
          events.push({
            type: 'DailySummarySet',
            data: { userId: user.userId, enabled: dailySummary, via: 'profile', at: command.at },
          });
        }
        return events;
      }
      case 'ChangeEmail': {
        const user = openAccount(state);
        // Following the link again after a move that was cut short: the account is there already.
        if (user.email === command.email) return [];
        return [{ type: 'UserProfileUpdated', data: { userId: user.userId, email: command.email, at: command.at } }];
      }
      case 'StopDailySummary': {
        const user = openAccount(state);
        // A link followed twice, or after turning it off in the profile: already done.
        if (!user.dailySummary) return [];
        return [
          {
            type: 'DailySummarySet',
            data: { userId: user.userId, enabled: false, via: 'unsubscribe-link', at: command.at },
          },
        ];
      }
      case 'RecordSignIn': {
        const user = openAccount(state);
        return [{ type: 'UserSignedIn', data: { userId: user.userId, method: command.method, at: command.at } }];
      }
      case 'GrantAdmin': {
        const user = openAccount(state);
        if (user.adminGranted) return [];
        return [{ type: 'AdminGranted', data: { userId: user.userId, at: command.at } }];
      }
      case 'CloseAccount': {
        const user = openAccount(state);
        const { by, adminId, at } = command;
        return [{ type: 'UserAccountClosed', data: { userId: user.userId, by, ...(adminId && { adminId }), at } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'UserRegistered': {
        const { method, at, ...user } = event.data;
        return {
          ...user,
          previousEmail: null,
          registeredEmail: user.email,
          adminGranted: false,
          registeredWith: method,
          registeredAt: at,
          lastSignInAt: at,
          lastSignInMethod: method,
          dailySummary: false,
          closed: false,
        };
      }
      case 'UserProfileUpdated': {
        if (!state) return state;
        const { userId: _userId, at: _at, ...changes } = event.data;
        return {
          ...state,
          email: changes.email === undefined ? state.email : changes.email,
          previousEmail: changes.email === undefined ? state.previousEmail : state.email,
          displayName: changes.displayName === undefined ? state.displayName : changes.displayName,
          photoURL: changes.photoURL === undefined ? state.photoURL : changes.photoURL,
        };
      }
      case 'DailySummarySet':
        return state && { ...state, dailySummary: event.data.enabled };
      case 'UserSignedIn':
        return state && { ...state, lastSignInAt: event.data.at, lastSignInMethod: event.data.method };
      case 'AdminGranted':
        return state && { ...state, adminGranted: true };
      case 'UserAccountClosed':
        return state && { ...state, closed: true, dailySummary: false };
    }
  },
};
