import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The first executable named `name` on PATH, then in `fallbacks`; undefined when there is none. */
export function findExecutable(name: string, fallbacks: string[] = []): string | undefined {
  const candidates = [
    ...(process.env.PATH ?? '')
      .split(delimiter)
      .filter(Boolean)
      .map((dir) => join(dir, name)),
    ...fallbacks,
  ];
  return candidates.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
