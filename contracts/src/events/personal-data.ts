import type { EventType } from './index';

export type PersonalDataKind = 'email' | 'name';

/**
 * Which data fields of which events hold a person's email or name: the admin event browser masks
 * them, and erasing an account has to reach them. (`name` elsewhere names a shirt, a charity or
 * a fundraiser, which is not personal.)
 */
export const personalDataFields: Partial<Record<EventType, Readonly<Record<string, PersonalDataKind>>>> = {
  UserRegistered: { email: 'email', displayName: 'name' },
  UserProfileUpdated: { email: 'email', displayName: 'name' },
  WaitlistJoined: { email: 'email', name: 'name' },
  WaitlistEntryFulfilled: { email: 'email', name: 'name' },
};
