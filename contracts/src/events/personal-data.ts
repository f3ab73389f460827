import type { EventType } from './definitions';

export type PersonalDataKind = 'email' | 'name' | 'photo';

/**
 * Which data fields of which events hold a person's email, name or photo's address (which can name
 * them too, and point at their face): they are stored sealed under
 * their person's key (see `personalDataSubject`), the admin event browser masks them, and erasing
 * a person reaches them. (`name` elsewhere names a shirt, a charity or a fundraiser, which is not
 * personal.)
 */
export const personalDataFields: Partial<Record<EventType, Readonly<Record<string, PersonalDataKind>>>> = {
  UserRegistered: { email: 'email', displayName: 'name', photoURL: 'photo' },
  UserProfileUpdated: { email: 'email', displayName: 'name', photoURL: 'photo' },
  WaitlistJoined: { email: 'email', name: 'name' },
  WaitlistEntryFulfilled: { email: 'email', name: 'name' },
  DonationReceiptAddressed: { email: 'email' },
};

/**
 * Whose personal data an event holds: an account (`user-<uid>`), one waitlist signup
 * (`waitlist-<entryId>`) or one donation's donor (`donor-<donationId>`), each with a key of its
 * own, so that closing an account or removing a signup erases exactly that person's data. A
 * fulfilment copies its signup's sealed fields, so it names the signup too.
 */
export const userDataSubject = (userId: string): string => `user-${userId}`;
export const waitlistDataSubject = (entryId: string): string => `waitlist-${entryId}`;
export const donorDataSubject = (donationId: string): string => `donor-${donationId}`;

type SubjectRule = [field: string, subject: (id: string) => string];
const subjectRules: Partial<Record<EventType, SubjectRule>> = {
  UserRegistered: ['userId', userDataSubject],
  UserProfileUpdated: ['userId', userDataSubject],
  WaitlistJoined: ['entryId', waitlistDataSubject],
  WaitlistEntryFulfilled: ['entryId', waitlistDataSubject],
  DonationReceiptAddressed: ['donationId', donorDataSubject],
};

/** The subject whose key seals this event's personal fields; undefined for events without any. */
export function personalDataSubject(type: string, data: unknown): string | undefined {
  const rule = subjectRules[type as EventType];
  const id = rule && (data as Record<string, unknown> | null)?.[rule[0]];
  return rule && typeof id === 'string' && id.length > 0 ? rule[1](id) : undefined;
}
