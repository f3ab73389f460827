import { z } from 'zod';

export const user = z
  .object({
    uid: z.string(),
    displayName: z.string().nullable(),
    email: z.string().nullable(),
    photoURL: z.string().nullable(),
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
    purchaseDate: z.string(),
    scans: z.number().int(),
    donationsInspired: z.number().int(),
    amountRaised: z.number(),
  })
  .meta({ id: 'FundraiserStatsItem' });
export type FundraiserStatsItem = z.infer<typeof fundraiserStatsItem>;

export const userStats = z
  .object({
    totalImpact: z.number(),
    totalScans: z.number().int(),
    shirtsOwned: z.number().int(),
    fundraiserStats: z.array(fundraiserStatsItem),
  })
  .meta({ id: 'UserStats' });
export type UserStats = z.infer<typeof userStats>;
