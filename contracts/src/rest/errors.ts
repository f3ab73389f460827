import { z } from 'zod';

/** Every non-2xx answer. `code` is present where the client maps it to a message (auth). */
export const errorAnswer = z.object({ error: z.string(), code: z.string().optional() }).meta({ id: 'Error' });
export type ErrorAnswer = z.infer<typeof errorAnswer>;
