import { z } from 'zod';
import { shirtImage } from '../events/shirts';

export const shirt = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    /** Dollars; the client shows it with a $ prefix. */
    price: z.number(),
    category: z.string().optional(),
    sizes: z.array(z.string()),
    tags: z.array(z.string()).optional(),
    images: z.array(shirtImage),
  })
  .meta({ id: 'Shirt' });
export type Shirt = z.infer<typeof shirt>;

export const shirtList = z.array(shirt);
