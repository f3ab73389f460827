import { isApiError } from '@/lib/http';

export type FieldErrors = Record<string, string>;

/** A failed save as a form shows it: each field's problem beside it, anything else above the form. */
export interface SaveProblem {
  message: string;
  fields: FieldErrors;
}

export function saveProblem(error: Error | null): SaveProblem | null {
  if (!error) return null;
  const fields = isApiError(error) ? (error.fields ?? {}) : {};
  return { message: error.message, fields };
}

/** The problem of exactly this field (`images`, `images.0.url`). */
export function ownError(fields: FieldErrors, name: string): string | undefined {
  return fields[name];
}

/** The problem of this field or of one of its items (`sizes.2`), for inputs that hold a whole list. */
export function errorWithin(fields: FieldErrors, name: string): string | undefined {
  return fields[name] ?? Object.entries(fields).find(([path]) => path.startsWith(`${name}.`))?.[1];
}
