import { Alert } from '@mantine/core';
import type { SaveProblem } from './field-errors';

/** Above a form: the server's message when no field carries it, else a pointer to the fields. */
export function FormProblemAlert({ problem }: { problem: SaveProblem | null }) {
  if (!problem) return null;
  const byField = Object.keys(problem.fields).length > 0;
  return (
    <Alert color="red" title="Not saved">
      {byField ? 'Please correct the fields marked below.' : problem.message}
    </Alert>
  );
}
