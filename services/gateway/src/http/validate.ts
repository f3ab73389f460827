import type { z } from 'zod';
import { HttpError } from './http-error';

/** The first issue (in schema order) as one sentence, e.g. "selectedSize is required". */
function summarise(error: z.ZodError): string {
  const [issue] = error.issues;
  if (!issue) return 'Invalid input';
  const where = issue.path.join('.');
  return where && !issue.message.startsWith(where) ? `${where}: ${issue.message}` : issue.message;
}

export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.infer<Schema> {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) throw new HttpError(400, summarise(parsed.error));
  return parsed.data;
}
