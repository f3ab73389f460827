import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { gatewayConfigSchema } from '@qrshirt/gateway';
import { ingestorConfigSchema } from '@qrshirt/ingestor';
import { projectorConfigSchema } from '@qrshirt/projector';

const schemas: Record<string, z.ZodObject> = {
  gateway: gatewayConfigSchema,
  ingestor: ingestorConfigSchema,
  projector: projectorConfigSchema,
};

interface Entry {
  value: string;
  /** A commented-out line: the variable is unset by default. */
  commented: boolean;
}

/** `.env.example` by `# [process]` section: each variable with its value and whether it is set. */
function sections(text: string): Map<string, Map<string, Entry>> {
  const found = new Map<string, Map<string, Entry>>();
  let current: Map<string, Entry> | undefined;
  for (const line of text.split('\n')) {
    const header = /^# \[([a-z-]+)\]/.exec(line);
    if (header) {
      current = new Map();
      found.set(header[1]!, current);
      continue;
    }
    const variable = /^(# )?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (variable && current) current.set(variable[2]!, { value: variable[3]!, commented: variable[1] !== undefined });
  }
  return found;
}

const example = sections(readFileSync(fileURLToPath(new URL('../../.env.example', import.meta.url)), 'utf8'));

/** The variables the first column of the README's settings table names. */
function readmeSettings(markdown: string): Set<string> {
  const table = markdown.split(/^## /m).find((section) => section.startsWith('Settings\n')) ?? '';
  const names = table
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]!));
  return new Set(names);
}

const readme = readmeSettings(readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8'));

describe('.env.example', () => {
  for (const [process, schema] of Object.entries(schemas)) {
    describe(`the ${process} section`, () => {
      const listed = example.get(process) ?? new Map<string, Entry>();

      it('lists every variable the process reads, and no other', () => {
        expect([...listed.keys()].sort()).toEqual(Object.keys(schema.shape).sort());
      });

      it("is in the README's settings table, every variable", () => {
        expect(Object.keys(schema.shape).filter((key) => !readme.has(key))).toEqual([]);
      });

      it('gives each set variable its default, and leaves unset only those without one', () => {
        for (const [key, field] of Object.entries(schema.shape) as [string, z.ZodType][]) {
          const entry = listed.get(key);
          if (!entry) continue;
          const byDefault = field.safeParse(undefined);
          if (entry.commented) {
            // Unset means: optional, or required (said in the comment), or a default not to be copied (a secret).
            continue;
          }
          expect(byDefault.success, `${key} is set in .env.example but has no default`).toBe(true);
          expect(field.parse(entry.value), `${key}=${entry.value} is not its default`).toEqual(byDefault.data);
        }
      });
    });
  }
});
