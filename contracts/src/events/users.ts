import { z } from 'zod';
import { defineEvent, isoInstant } from './define-event';

export const signInMethod = z.enum(['password', 'google', 'phone', 'anonymous']);

export const UserRegistered = defineEvent(
  'UserRegistered',
  z.object({
    userId: z.string().min(1),
    email: z.string().nullable(),
    displayName: z.string().nullable(),
    photoURL: z.string().nullable(),
    method: signInMethod,
    at: isoInstant,
  }),
);

export const UserProfileUpdated = defineEvent(
  'UserProfileUpdated',
  z.object({
    userId: z.string().min(1),
    displayName: z.string().nullable().optional(),
    photoURL: z.string().nullable().optional(),
    email: z.string().nullable().optional(),
    at: isoInstant,
  }),
);

/**
 * The owner asked for (or stopped) the daily summary mail: from their profile, or by following the
 * unsubscribe link of a summary, which works without signing in.
 */
export const DailySummarySet = defineEvent(
  'DailySummarySet',
  z.object({
    userId: z.string().min(1),
    enabled: z.boolean(),
    via: z.enum(['profile', 'unsubscribe-link']),
    at: isoInstant,
  }),
);

export const UserSignedIn = defineEvent(
  'UserSignedIn',
  z.object({ userId: z.string().min(1), method: signInMethod, at: isoInstant }),
);

/** Appended to `email-<lookup key>` with expected revision "no stream": one account per email. */
export const EmailReserved = defineEvent('EmailReserved', z.object({ userId: z.string().min(1), at: isoInstant }));

/**
 * On the same `email-<lookup key>` stream: the holder proved the address is theirs, by following a
 * mailed link or by signing in with Google, which verified it. Rights that hang on an address
 * (ADMIN_EMAILS, claiming a waitlisted shirt) need this.
 */
export const EmailVerified = defineEvent(
  'EmailVerified',
  z.object({ userId: z.string().min(1), via: z.enum(['link', 'google']), at: isoInstant }),
);

/**
 * An operator named the account an admin (`npm run admin -- grant EMAIL`): the one way an account
 * that moved to an `ADMIN_EMAILS` address by a change of address becomes one.
 */
export const AdminGranted = defineEvent('AdminGranted', z.object({ userId: z.string().min(1), at: isoInstant }));

/**
 * The account is closed, by its person or erased by an operator (`adminId`): its sessions and
 * credentials are gone and its key is destroyed, so its name and email read as null everywhere.
 * Its fundraisers stay, with their figures, under the now anonymous user id.
 */
export const UserAccountClosed = defineEvent(
  'UserAccountClosed',
  z.object({
    userId: z.string().min(1),
    by: z.enum(['self', 'admin']),
    adminId: z.string().min(1).optional(),
    at: isoInstant,
  }),
);

/**
 * On the `email-<lookup key>` stream: the account holding the address was closed, or moved to another
 * address by a change of address's link; the address is free for a new account.
 */
export const EmailReleased = defineEvent('EmailReleased', z.object({ userId: z.string().min(1), at: isoInstant }));
