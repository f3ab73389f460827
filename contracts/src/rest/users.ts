import { z } from 'zod';
import { defineRoutes, invalidInput as invalid, notFound, unauthenticated } from '../route';
import { errorAnswer } from './errors';
import { idParams } from './ids';
import { EMAIL_AS_SENT, HTTPS_ADDRESS } from './text-patterns';

/**
 * A profile photo the pages show as an image: https only, never `javascript:`, `data:`, `file:` or
 * `http:` (a page served over https would not load it, or worse, a crafted one would run).
 */
const photoAddress = z.string().max(2048).regex(HTTPS_ADDRESS, 'photoURL must be an https:// address');

/** PATCH /api/user/{id}: the user's own display name, photo and daily summary mail. */
export const updateProfileRequest = z
  .object({
    displayName: z.string().max(200).trim().min(1).optional(),
    photoURL: photoAddress.nullable().optional(),
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

/**
 * POST /api/user: the signed-in user syncs their own profile. `email`, when given, must be the
 * account's own (any case): the sync never changes it (409), `POST /api/user/{id}/email` does.
 */
export const syncUserRequest = z.object({
  uid: z.string().min(1).max(128),
  displayName: z.string().max(200).nullable().optional(),
  email: z.email().max(320).nullable().optional(),
  photoURL: photoAddress.nullable().optional(),
});
export type SyncUserRequest = z.infer<typeof syncUserRequest>;

/**
 * POST /api/user/{id}/email: the new address. Checked by the sign-in code after trimming, whose
 * refusal carries the auth code `invalid-email`, as at sign-up.
 */
export const changeEmailRequest = z.object({ email: z.string().max(320).meta({ pattern: EMAIL_AS_SENT }) });
export type ChangeEmailRequest = z.infer<typeof changeEmailRequest>;

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
    /** Confirmed test money (demo processor, test keys), never part of the figures above. */
    testDonations: z.number().int(),
    testAmountRaised: z.number(),
  })
  .meta({ id: 'FundraiserStatsItem' });
export type FundraiserStatsItem = z.infer<typeof fundraiserStatsItem>;

export const userStats = z
  .object({
    /** Confirmed live dollars across the user's fundraisers. */
    totalImpact: z.number(),
    /** Reported dollars awaiting the processor's confirmation, across them. */
    totalReported: z.number(),
    /** Confirmed test dollars across them, never part of `totalImpact`. */
    testAmountRaised: z.number(),
    testDonations: z.number().int(),
    totalScans: z.number().int(),
    shirtsOwned: z.number().int(),
    fundraiserStats: z.array(fundraiserStatsItem),
  })
  .meta({ id: 'UserStats' });
export type UserStats = z.infer<typeof userStats>;

/** A waitlist entry's progress, as the admin list names it (see `adminWaitlistEntry`). */
const waitlistEntryStatus = z.enum(['unconfirmed', 'waiting', 'fulfilled', 'claimed', 'removed']);

/**
 * How the account signs in, never the secrets: no password hash, token or code. A phone number
 * is kept only as a keyed hash, so the export cannot give it back. `firstUsedAt`: the first sign-in
 * with it the account's events record.
 */
export const signInMethodExport = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('password'), email: z.string().nullable() }),
  z.object({ kind: z.literal('google'), subject: z.string(), firstUsedAt: z.string().nullable() }),
  z.object({ kind: z.literal('phone'), firstUsedAt: z.string().nullable() }),
]);

/**
 * GET /api/user/{id}/export: everything the shop holds about its person, and nothing about anyone
 * else. Figures count other people's scans and donations, but name none of them.
 */
export const personalDataExport = z
  .object({
    exportedAt: z.string(),
    profile: z.object({
      uid: z.string(),
      displayName: z.string().nullable(),
      email: z.string().nullable(),
      /** They proved the address is theirs: only then are waitlist entries and donations made with it theirs. */
      emailVerified: z.boolean(),
      photoURL: z.string().nullable(),
      dailySummary: z.boolean(),
      registeredAt: z.string(),
      registeredWith: z.string(),
      lastSignInAt: z.string(),
    }),
    signInMethods: z.array(signInMethodExport),
    /** Their fundraisers and figures, as the dashboard shows them. */
    fundraisers: userStats,
    /** Entries made with their verified address, and the ones whose shirt they claimed. */
    waitlistEntries: z.array(
      z.object({
        id: z.string(),
        name: z.string().nullable(),
        email: z.string().nullable(),
        shirtId: z.string(),
        size: z.string(),
        charityId: z.string(),
        status: waitlistEntryStatus,
        joinedAt: z.string(),
        confirmedAt: z.string().nullable(),
        fulfilledAt: z.string().nullable(),
        claimedAt: z.string().nullable(),
        removedAt: z.string().nullable(),
        fundraiserId: z.string().nullable(),
      }),
    ),
    /** Card donations whose receipts went to their verified address, as the processor confirmed them. */
    donations: z.array(
      z.object({
        /** The processor's id of the payment (a Stripe PaymentIntent's), which its receipts name. */
        id: z.string(),
        email: z.string().nullable(),
        fundraiserId: z.string(),
        charityId: z.string().nullable(),
        /** Dollars paid, and of them refunded or withdrawn for a dispute, as it stands. */
        amount: z.number(),
        refunded: z.number(),
        /** False for the processor's test money. */
        live: z.boolean(),
        paidAt: z.string(),
      }),
    ),
    /** The events of their account, fundraisers, entries and donations, oldest first, names and emails revealed. */
    events: z.array(
      z.object({
        stream: z.string(),
        type: z.string(),
        recordedAt: z.string(),
        data: z.record(z.string(), z.unknown()),
      }),
    ),
  })
  .meta({ id: 'PersonalDataExport' });
export type PersonalDataExport = z.infer<typeof personalDataExport>;

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
      409: { description: '`email` is not the account’s address: nothing was changed', schema: errorAnswer },
    },
  },
  changeEmail: {
    method: 'post',
    path: '/api/user/{id}/email',
    summary:
      'Change one’s own address: mails a link to the new address, which moves the account once followed (until then the address stays)',
    auth: 'user',
    params: idParams,
    body: changeEmailRequest,
    answers: {
      202: { description: 'The link is on its way to the new address (it works once, within 24 hours)' },
      400: { description: 'Malformed body, or not an email address (invalid-email)', schema: errorAnswer },
      401: unauthenticated,
      403: { description: 'Someone else’s account, or an anonymous session', schema: errorAnswer },
      404: notFound,
      409: {
        description: 'It is the account’s address already, or another account holds it',
        schema: errorAnswer,
      },
      429: { description: 'Too many mails (too-many-requests)', schema: errorAnswer },
      503: { description: 'The rate limits cannot be checked right now (Redis down)', schema: errorAnswer },
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
  exportUserData: {
    method: 'get',
    path: '/api/user/{id}/export',
    summary:
      'Download one’s own data as a JSON file: profile, sign-in methods, fundraisers and figures, waitlist entries and events',
    auth: 'user',
    params: idParams,
    answers: {
      200: {
        description: 'The data, as an attachment `qrshirts-data-<id>.json`',
        schema: personalDataExport,
      },
      401: unauthenticated,
      403: { description: 'Someone else’s account, or an anonymous session', schema: errorAnswer },
      404: { description: 'No such account, or a closed one', schema: errorAnswer },
    },
  },
});

/** An owner's impact across their fundraisers, which the fundraisers feature answers. */
export const userStatsRoutes = defineRoutes({
  getUserStats: {
    method: 'get',
    path: '/api/user/{id}/stats',
    summary: "A user's impact (only themselves)",
    auth: 'any',
    params: idParams,
    answers: { 200: { description: 'Impact figures', schema: userStats }, 401: unauthenticated, 403: forbidden },
  },
});

/** An owner's stats as they change. */
export const userStreamRoutes = defineRoutes({
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
      429: {
        description: 'The account has 5 live streams open already (other tabs or devices); closing one frees its place',
        schema: errorAnswer,
      },
    },
  },
});
