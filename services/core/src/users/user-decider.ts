import type { EventData, EventOf } from '@qrshirt/contracts';
import { changedFields } from '../event-sourcing/changed-fields';
import { type Decider, DomainError } from '../event-sourcing/decider';

export type SignInMethod = EventData<'UserSignedIn'>['method'];

export interface UserProfile {
  email: string | null;
  displayName: string | null;
  photoURL: string | null;
}

export interface UserState extends UserProfile {
  userId: string;
  registeredWith: SignInMethod;
  registeredAt: string;
  lastSignInAt: string;
  lastSignInMethod: SignInMethod;
  /** The owner asked for the daily summary mail. */
  dailySummary: boolean;
}

export interface RegisterUser extends UserProfile {
  type: 'RegisterUser';
  userId: string;
  method: SignInMethod;
  at: string;
}

export interface UpdateProfile extends Partial<UserProfile> {
  type: 'UpdateProfile';
  userId: string;
  dailySummary?: boolean;
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

export type UserCommand = RegisterUser | UpdateProfile | StopDailySummary | RecordSignIn;
export type UserEvent =
  EventOf<'UserRegistered'> | EventOf<'UserProfileUpdated'> | EventOf<'DailySummarySet'> | EventOf<'UserSignedIn'>;

export const userStreamName = (userId: string): string => `user-${userId}`;

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
        if (!state) throw new DomainError('not_found', 'User not found');
        const { email, displayName, photoURL, dailySummary } = command;
        const changes = changedFields<UserProfile>(state, { email, displayName, photoURL });
        // The client syncs the profile on every sign-in; an unchanged profile is not an error.
        const events: UserEvent[] =
          Object.keys(changes).length === 0
            ? []
            : [{ type: 'UserProfileUpdated', data: { ...changes, userId: state.userId, at: command.at } }];
        if (dailySummary !== undefined && dailySummary !== state.dailySummary) {
          events.push({
            type: 'DailySummarySet',
            data: { userId: state.userId, enabled: dailySummary, via: 'profile', at: command.at },
          });
        }
        return events;
      }
      case 'StopDailySummary': {
        if (!state) throw new DomainError('not_found', 'User not found');
        // A link followed twice, or after turning it off in the profile: already done.
        if (!state.dailySummary) return [];
        return [
          {
            type: 'DailySummarySet',
            data: { userId: state.userId, enabled: false, via: 'unsubscribe-link', at: command.at },
          },
        ];
      }
      case 'RecordSignIn': {
        if (!state) throw new DomainError('not_found', 'User not found');
        return [{ type: 'UserSignedIn', data: { userId: state.userId, method: command.method, at: command.at } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'UserRegistered': {
        const { method, at, ...user } = event.data;
        return {
          ...user,
          registeredWith: method,
          registeredAt: at,
          lastSignInAt: at,
          lastSignInMethod: method,
          dailySummary: false,
        };
      }
      case 'UserProfileUpdated': {
        if (!state) return state;
        const { userId: _userId, at: _at, ...changes } = event.data;
        return {
          ...state,
          email: changes.email === undefined ? state.email : changes.email,
          displayName: changes.displayName === undefined ? state.displayName : changes.displayName,
          photoURL: changes.photoURL === undefined ? state.photoURL : changes.photoURL,
        };
      }
      case 'DailySummarySet':
        return state && { ...state, dailySummary: event.data.enabled };
      case 'UserSignedIn':
        return state && { ...state, lastSignInAt: event.data.at, lastSignInMethod: event.data.method };
    }
  },
};
