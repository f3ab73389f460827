import { z } from 'zod';
import { defineRoutes, invalidInput as invalid } from '../route';
import { errorAnswer } from './errors';

/** The token from the unsubscribe link (`/unsubscribe#token=<token>`) of a daily summary mail. */
export const unsubscribeRequest = z.object({
  token: z.string({ error: 'token is required' }).max(512).trim().min(1, 'token is required'),
});
export type UnsubscribeRequest = z.infer<typeof unsubscribeRequest>;

export const unsubscribeAnswer = z.object({ dailySummary: z.literal(false) }).meta({ id: 'Unsubscribed' });
export type UnsubscribeAnswer = z.infer<typeof unsubscribeAnswer>;

/* Owner mail: the link in every daily summary turns it off without signing in. */
export const unsubscribeRoutes = defineRoutes({
  unsubscribe: {
    method: 'post',
    path: '/api/unsubscribe',
    summary: 'Stop the daily summary mail, with the token of its unsubscribe link (no sign-in)',
    auth: 'none',
    body: unsubscribeRequest,
    answers: {
      200: { description: 'No more daily summaries', schema: unsubscribeAnswer },
      400: invalid,
      404: { description: 'Not an unsubscribe link of ours', schema: errorAnswer },
    },
  },
});
