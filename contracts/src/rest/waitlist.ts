import { z } from 'zod';
import { EMAIL_AS_SENT } from './text-patterns';
import { defineRoutes, invalidInput as invalid, notFound } from '../route';
import { errorAnswer } from './errors';

/** Presence is checked in the spec's order (size, charity, name, email), as the client does. */
export const joinWaitlistRequest = z.object({
  selectedSize: z.string({ error: 'selectedSize is required' }).max(32).trim().min(1, 'selectedSize is required'),
  selectedCharity: z
    .string({ error: 'selectedCharity is required' })
    .max(128)
    .trim()
    .min(1, 'selectedCharity is required'),
  name: z.string({ error: 'name is required' }).max(200).trim().min(1, 'name is required'),
  email: z
    .string({ error: 'email is required' })
    .max(320)
    .trim()
    .min(1, 'email is required')
    // Checked by the waitlist's decider, with the spec's message.
    .meta({ pattern: EMAIL_AS_SENT }),
  shirtId: z.string({ error: 'shirtId is required' }).max(128).trim().min(1, 'shirtId is required'),
});
export type JoinWaitlistRequest = z.infer<typeof joinWaitlistRequest>;

export const waitlistEntry = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  selectedSize: z.string(),
  selectedCharity: z.string(),
  shirtId: z.string(),
});

export const joinWaitlistAnswer = z
  .object({ success: z.literal(true), message: z.string(), data: waitlistEntry })
  .meta({ id: 'WaitlistJoined' });
export type JoinWaitlistAnswer = z.infer<typeof joinWaitlistAnswer>;

const counts = z.record(z.string(), z.number().int());

/** GET /api/waitlist: counts only, never names or emails. */
export const waitlistStats = z
  .object({
    total: z.number().int(),
    byShirt: counts,
    bySize: counts,
    byCharity: counts,
    /** shirt id -> size -> count */
    byShirtAndSize: z.record(z.string(), counts),
  })
  .meta({ id: 'WaitlistStats' });
export type WaitlistStats = z.infer<typeof waitlistStats>;

/** The token from the confirmation link (`/waitlist/confirm#token=<token>`) mailed when the person joined. */
export const confirmWaitlistEntryRequest = z.object({
  token: z.string({ error: 'token is required' }).max(512).trim().min(1, 'token is required'),
});
export type ConfirmWaitlistEntryRequest = z.infer<typeof confirmWaitlistEntryRequest>;

/** The token from a removal link (`/waitlist/remove#token=<token>`), which every waitlist mail carries. */
export const removeWaitlistEntryRequest = z.object({
  token: z.string({ error: 'token is required' }).max(512).trim().min(1, 'token is required'),
});
export type RemoveWaitlistEntryRequest = z.infer<typeof removeWaitlistEntryRequest>;

export const removedWaitlistEntry = z.object({ removed: z.literal(true) }).meta({ id: 'RemovedWaitlistEntry' });
export type RemovedWaitlistEntry = z.infer<typeof removedWaitlistEntry>;

export const confirmedWaitlistEntry = z
  .object({ confirmed: z.literal(true), shirtId: z.string(), shirtName: z.string().nullable(), size: z.string() })
  .meta({ id: 'ConfirmedWaitlistEntry' });
export type ConfirmedWaitlistEntry = z.infer<typeof confirmedWaitlistEntry>;

/** The waitlist. */
export const waitlistRoutes = defineRoutes({
  joinWaitlist: {
    method: 'post',
    path: '/api/waitlist',
    summary: 'Join the waitlist for a shirt',
    auth: 'none',
    body: joinWaitlistRequest,
    challenge: true,
    answers: {
      201: {
        description:
          'Joined (a repeated join answers the same entry and mails nothing new; after a 503 it mails what that try could not store)',
        schema: joinWaitlistAnswer,
      },
      400: invalid,
      404: notFound,
      429: {
        description:
          'The mail budget of the address or of the client is spent (mails strangers can ask for); Retry-After says when to come back. Nothing was stored',
        schema: errorAnswer,
      },
      503: { description: 'The mail budgets cannot be checked right now (Redis down)', schema: errorAnswer },
    },
  },
  getWaitlistStats: {
    method: 'get',
    path: '/api/waitlist',
    summary: 'Waitlist counts (no personal data)',
    auth: 'none',
    answers: { 200: { description: 'Counts', schema: waitlistStats } },
  },
  confirmWaitlistEntry: {
    method: 'post',
    path: '/api/waitlist/confirm',
    summary: 'Confirm a waitlist signup with the token of the link mailed to its address',
    auth: 'none',
    body: confirmWaitlistEntryRequest,
    answers: {
      200: { description: 'Confirmed', schema: confirmedWaitlistEntry },
      400: invalid,
      404: { description: 'Not a confirmation link of ours', schema: errorAnswer },
      409: { description: 'The link was used already: the place is confirmed', schema: errorAnswer },
      410: { description: 'Its person removed the entry', schema: errorAnswer },
    },
  },
  removeWaitlistEntry: {
    method: 'post',
    path: '/api/waitlist/remove',
    summary: "Remove a waitlist entry and erase its person's name and email, with the removal link of a waitlist mail",
    auth: 'none',
    body: removeWaitlistEntryRequest,
    answers: {
      200: { description: 'Removed and erased', schema: removedWaitlistEntry },
      400: invalid,
      404: { description: 'Not a removal link of ours, or the entry was removed already', schema: errorAnswer },
    },
  },
});
