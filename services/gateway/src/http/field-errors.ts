import type { z } from 'zod';
import { HttpError } from './http-error';

/** A 400 for a form: `fields` maps each field's path (`name`, `images.0.url`) to its first problem. */
export class FieldErrors extends HttpError {
  constructor(
    message: string,
    readonly fields: Record<string, string>,
  ) {
    super(400, message);
    this.name = 'FieldErrors';
  }
}

/** Like parseInput, but every field's problem is reported, for the admin forms to show beside it. */
export function parseFields<Schema extends z.ZodType>(schema: Schema, input: unknown): z.infer<Schema> {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.join('.');
    if (path && !(path in fields)) fields[path] = issue.message;
  }
  const [first] = parsed.error.issues;
  throw new FieldErrors(first?.message ?? 'Invalid input', fields);
}
