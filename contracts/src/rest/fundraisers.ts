import { z } from 'zod';

export const fundraiser = z
  .object({
    id: z.string(),
    userId: z.string(),
    charityId: z.string(),
    shirtId: z.string(),
    name: z.string(),
  })
  .meta({ id: 'Fundraiser' });
export type Fundraiser = z.infer<typeof fundraiser>;

export const createFundraiserRequest = z.object({
  charityId: z.string().trim().min(1).max(128),
  shirtId: z.string().trim().min(1).max(128),
  name: z.string().trim().min(1).max(200).optional(),
});
export type CreateFundraiserRequest = z.infer<typeof createFundraiserRequest>;

export const scanAccepted = z.object({ scanId: z.string() }).meta({ id: 'ScanAccepted' });
export type ScanAccepted = z.infer<typeof scanAccepted>;

/**
 * The donation widget may send the amount as a number or as a string, possibly wrapped in
 * quotes; the decider parses it (spec section 5), so the contract only bounds its shape.
 */
export const donateRequest = z.object({
  amount: z.union([z.number(), z.string().max(64)], { error: 'amount must be a number greater than 0' }),
  source: z.string().trim().min(1).max(64).optional(),
});
export type DonateRequest = z.infer<typeof donateRequest>;

export const donation = z
  .object({
    id: z.string(),
    fundraiserId: z.string(),
    amount: z.number(),
    currency: z.literal('USD'),
  })
  .meta({ id: 'Donation' });
export type Donation = z.infer<typeof donation>;

export const dailyStats = z.object({
  date: z.string(),
  scans: z.number().int(),
  donations: z.number().int(),
  amountRaised: z.number(),
});
export type DailyStats = z.infer<typeof dailyStats>;

export const fundraiserStats = z
  .object({
    scans: z.number().int(),
    donations: z.number().int(),
    amountRaised: z.number(),
    daily: z.array(dailyStats),
  })
  .meta({ id: 'FundraiserStats' });
export type FundraiserStats = z.infer<typeof fundraiserStats>;

/** `?download=1` (or `true`) answers the QR code as an attachment with a file name. */
export const qrCodeQuery = z.object({ download: z.string().max(8).optional() });
