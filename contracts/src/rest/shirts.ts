import { z } from 'zod';
import { shirtImage } from '../events/shirts';
import { defineRoutes, notFound } from '../route';
import { idParams } from './ids';

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

/** The shirts in the shop. */
export const shirtRoutes = defineRoutes({
  listShirts: {
    method: 'get',
    path: '/api/shirts',
    summary: 'All shirts',
    auth: 'none',
    answers: { 200: { description: 'Shirts', schema: shirtList } },
  },
  getShirt: {
    method: 'get',
    path: '/api/shirt/{id}',
    summary: 'One shirt',
    auth: 'none',
    params: idParams,
    answers: { 200: { description: 'The shirt', schema: shirt }, 404: notFound },
  },
});
