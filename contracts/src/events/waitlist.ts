import { z } from 'zod';
import { defineEvent, isoInstant } from './define-event';

export const WaitlistJoined = defineEvent(
  'WaitlistJoined',
  z.object({
    entryId: z.string().min(1),
    shirtId: z.string().min(1),
    name: z.string().min(1),
    email: z.string().min(1),
    size: z.string().min(1),
    charityId: z.string().min(1),
    at: isoInstant,
  }),
);
