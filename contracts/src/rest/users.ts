import { z } from 'zod';
import { defineRoutes, invalidInput as invalid, notFound, unauthenticated } from '../route';
import { errorAnswer } from './errors';
import { idParams } from './ids';

/** PATCH /api/user/{id}: the user's own display name, photo and daily summary mail. */
export const updateProfileRequest = z
  .object({
    displayName: z.string().trim().min(1).max(200).optional(),
    photoURL: z.url().max(2048).nullable().optional(),
    /** A mail on each day their shirts were scanned or raised money (owner mail). */
    dailySummary: z.boolean().optional(),
  })
  .refine(
    (body) => body.displayName !== undefined || body.photoURL !== undefined || body.dailySummary !== undefined,
    'nothing to update',
  )
  // JSON Schema has no refine: say it the document's way too.
  .meta({ anyOf: [{ required: ['displayName'] }, { required: ['photoURL'] }, { required: ['dailySummary'] }] });
export type UpdateProfileRequest = z.infer<typeof updateProfileRequest>;

/**
 * DELETE /api/user/{id}: a password account proves it is its person with the password; an
 * account without one by having signed in within the last 5 minutes.
 */
export const closeAccountRequest = z.object({ password: z.string().min(1).max(1024).optional() });
export type CloseAccountRequest = z.infer<typeof closeAccountRequest>;

export const user = z
  .object({
    uid: z.string(),
    displayName: z.string().nullable(),
    email: z.string().nullable(),
    photoURL: z.string().nullable(),
    /** Whether they get the daily summary mail; off until they turn it on. */
    dailySummary: z.boolean(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof user>;

/** POST /api/user: the signed-in user syncs their own profile. */
export const syncUserRequest = z.object({
  uid: z.string().min(1).max(128),
  displayName: z.string().max(200).nullable().optional(),
  email: z.email().max(320).nullable().optional(),
  photoURL: z.url().max(2048).nullable().optional(),
});
export type SyncUserRequest = z.infer<typeof syncUserRequest>;

export const fundraiserStatsItem = z
  .object({
    id: z.string(),
    name: z.string(),
    /** The charity it supports now, and the owner's goal in dollars (null: none): the dashboard edits both. */
    charityId: z.string(),
    goal: z.number().nullable(),
    purchaseDate: z.string(),
    scans: z.number().int(),
    donationsInspired: z.number().int(),
    amountRaised: z.number(),
    /** Reported by the page, not confirmed by the processor yet. */
    amountReported: z.number(),
  })
  .meta({ id: 'FundraiserStatsItem' });
export type FundraiserStatsItem = z.infer<typeof fundraiserStatsItem>;

export const userStats = z
  .object({
    /** Confirmed dollars across the user's fundraisers. */
    totalImpact: z.number(),
    /** Reported dollars awaiting the processor's confirmation, across them. */
    totalReported: z.number(),
    totalScans: z.number().int(),
    shirtsOwned: z.number().int(),
    fundraiserStats: z.array(fundraiserStatsItem),
  })
  .meta({ id: 'UserStats' });
export type UserStats = z.infer<typeof userStats>;

const forbidden = { description: 'Not allowed', schema: errorAnswer };

/** Accounts' profiles and impact. */
export const userRoutes = defineRoutes({
  syncUser: {
    method: 'post',
    path: '/api/user',
    summary: "Sync the signed-in user's profile",
    auth: 'user',
    body: syncUserRequest,
    answers: {
      200: { description: 'The stored user', schema: user },
      400: invalid,
      401: unauthenticated,
      403: forbidden,
    },
  },
  getUser: {
    method: 'get',
    path: '/api/user/{id}',
    summary: 'One user (only themselves)',
    auth: 'any',
    params: idParams,
    answers: {
      200: { description: 'The user', schema: user },
      401: unauthenticated,
      403: forbidden,
      404: notFound,
    },
  },
  updateProfile: {
    method: 'patch',
    path: '/api/user/{id}',
    summary: 'Change display name, photo or the daily summary mail (only themselves)',
    auth: 'any',
    params: idParams,
    body: updateProfileRequest,
    answers: {
      200: { description: 'The user', schema: user },
      400: invalid,
      401: unauthenticated,
      403: forbidden,
      404: notFound,
    },
  },
  closeAccount: {
    method: 'delete',
    path: '/api/user/{id}',
    summary:
      'Close one’s own account: every session ends, its credentials go and its name and email are erased; its fundraisers stay, anonymous',
    auth: 'user',
    params: idParams,
    body: closeAccountRequest,
    answers: {
      204: { description: 'Closed' },
      400: invalid,
      401: { description: 'No token, a bad one, or a wrong password', schema: errorAnswer },
      403: {
        description:
          'Someone else’s account; no password for an account that has one; or, without one, no sign-in within 5 minutes',
        schema: errorAnswer,
      },
      404: notFound,
    },
  },
  getUserStats: {
    method: 'get',
    path: '/api/user/{id}/stats',
    summary: "A user's impact (only themselves)",
    auth: 'any',
    params: idParams,
    answers: { 200: { description: 'Impact figures', schema: userStats }, 401: unauthenticated, 403: forbidden },
  },
  streamUserStats: {
    method: 'get',
    path: '/api/user/{id}/live',
    summary: "A user's impact as server-sent events (only themselves)",
    auth: 'any',
    params: idParams,
    answers: {
      200: {
        description:
          '`event: stats` with the /stats JSON now and on every scan or donation of theirs; `: heartbeat` every 15 s',
        contentType: 'text/event-stream',
      },
      401: unauthenticated,
      403: { description: 'Another user', schema: errorAnswer },
    },
  },
});
