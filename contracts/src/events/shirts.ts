import { z } from 'zod';
import { defineEvent, isoInstant } from './define-event';

export const shirtImage = z.object({
  id: z.string().min(1),
  url: z.string().min(1),
  alt: z.string(),
  isMain: z.boolean(),
});

export const shirtFields = z.object({
  name: z.string().min(1),
  description: z.string(),
  priceCents: z.number().int().nonnegative(),
  category: z.string().min(1).optional(),
  sizes: z.array(z.string().min(1)).min(1),
  tags: z.array(z.string().min(1)).optional(),
  images: z.array(shirtImage),
});

export const ShirtAdded = defineEvent('ShirtAdded', shirtFields.extend({ shirtId: z.string().min(1), at: isoInstant }));

export const ShirtUpdated = defineEvent(
  'ShirtUpdated',
  shirtFields.partial().extend({ shirtId: z.string().min(1), at: isoInstant }),
);
