import { z } from 'zod';

export const charity = z
  .object({
    id: z.string(),
    name: z.string(),
    mission: z.string(),
    website_url: z.string(),
    logo_url: z.string().optional(),
  })
  .meta({ id: 'Charity' });
export type Charity = z.infer<typeof charity>;

export const charityList = z.array(charity);

export const createCharityRequest = z.object({
  name: z.string().trim().min(1).max(200),
  mission: z.string().trim().min(1).max(2000),
  website_url: z.url().max(2048),
  logo_url: z.string().trim().min(1).max(2048).optional(),
});
export type CreateCharityRequest = z.infer<typeof createCharityRequest>;
