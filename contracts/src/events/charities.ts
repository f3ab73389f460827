import { z } from 'zod';
import { defineEvent, isoInstant } from './define-event';

export const charityFields = z.object({
  name: z.string().min(1),
  mission: z.string().min(1),
  website_url: z.url(),
  logo_url: z.string().min(1).optional(),
});

export const CharityCreated = defineEvent(
  'CharityCreated',
  charityFields.extend({ charityId: z.string().min(1), createdBy: z.string().nullable(), at: isoInstant }),
);

export const CharityUpdated = defineEvent(
  'CharityUpdated',
  charityFields.partial().extend({ charityId: z.string().min(1), at: isoInstant }),
);
