import { z } from 'zod';
import { TRIMMED } from './rest/text-patterns';
import { apiRouteList } from './routes';

/** The header of a route with `challenge: true`, as the document names it. */
const proofOfWorkParameter = {
  name: 'X-Altcha',
  in: 'header',
  required: true,
  description:
    'A solved proof-of-work challenge: the ALTCHA payload (base64 of JSON `{ challenge, solution }`) for a challenge from GET /api/challenge, each accepted once and before the challenge expires',
  schema: { type: 'string', minLength: 1 },
};

const NOT_TRIMMED = `[^${TRIMMED}]`;

/**
 * zod checks `.trim().min(n)` on the trimmed text, but JSON Schema's minLength counts every character:
 * without more, a name of one space (or one vertical tab) is a valid request the server refuses. So
 * such strings also carry a pattern for "at least n characters from the first non-blank one to the
 * last". Patterns are not anchored in JSON Schema: it may match anywhere in the string. A longest
 * length has no such pattern, so it must be checked before `.trim()`, on the text as sent.
 */
function requireTrimmedLength({ zodSchema, jsonSchema }: { zodSchema: unknown; jsonSchema: Record<string, unknown> }) {
  if (!(zodSchema instanceof z.ZodString)) return;
  const checks = zodSchema._zod.def.checks ?? [];
  const trimmedAt = checks.findIndex(
    (check) =>
      check._zod.def.check === 'overwrite' &&
      (check as z.core.$ZodCheckOverwrite<string>)._zod.def.tx(' x\u3000') === 'x',
  );
  if (trimmedAt === -1) return;
  const lengthCheckedAfterTrim = checks
    .slice(trimmedAt + 1)
    .some((check) => check._zod.def.check === 'max_length' || check._zod.def.check === 'length_equals');
  if (lengthCheckedAfterTrim) {
    throw new Error(
      'a string schema checks its longest length after .trim(): JSON Schema counts the blanks too, so check it before .trim()',
    );
  }
  const minimum = jsonSchema.minLength;
  if (typeof minimum !== 'number' || minimum < 1) return;
  if (!checks.slice(trimmedAt + 1).some((check) => check._zod.def.check === 'min_length')) return;
  const pattern = minimum === 1 ? NOT_TRIMMED : `${NOT_TRIMMED}[\\s\\S]{${minimum - 2},}${NOT_TRIMMED}`;
  if (jsonSchema.pattern === undefined && jsonSchema.allOf === undefined) jsonSchema.pattern = pattern;
  else jsonSchema.allOf = [...((jsonSchema.allOf as unknown[] | undefined) ?? []), { pattern }];
}

/** zod points refs at the schema's own `$defs`; OpenAPI wants them under components. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const generated = JSON.stringify(
    z.toJSONSchema(schema, { io, unrepresentable: 'any', override: (ctx) => requireTrimmedLength(ctx) }),
  );
  return JSON.parse(generated.replaceAll('"#/$defs/', '"#/components/schemas/')) as Record<string, unknown>;
}

/** Lifts `$defs` of inlined schemas into components so every named schema appears once. */
function collect(schema: Record<string, unknown>, components: Record<string, unknown>): Record<string, unknown> {
  const { $defs, $schema: _ignored, ...rest } = schema as { $defs?: Record<string, unknown>; $schema?: string };
  for (const [id, def] of Object.entries($defs ?? {})) components[id] = def;
  return rest;
}

/**
 * One parameter per property of a params or query object, each with the property's own JSON Schema:
 * a client (or a fuzzer) that reads only the document must know which ids and values the gateway
 * accepts, or every value outside the zod schema looks like a valid request the server refused.
 * Input schemas, since these are what the gateway parses (a query's `limit` is coerced to a number).
 */
function objectParameters(
  object: z.ZodObject | undefined,
  location: 'path' | 'query' | 'header' | 'cookie',
  components: Record<string, unknown>,
): unknown[] {
  if (!object) return [];
  const schema = collect(jsonSchema(object, 'input'), components) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return {
      name,
      in: location,
      // OpenAPI requires every path parameter; a query parameter is required when its schema says so.
      required: location === 'path' || (schema.required ?? []).includes(name),
      ...(typeof description === 'string' && { description }),
      schema: propertySchema,
    };
  });
}

/** OpenAPI 3.1 (whose schemas are JSON Schema 2020-12, what zod emits). */
export function buildOpenApiDocument(info: { version: string; serverUrl?: string }) {
  const components: Record<string, unknown> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of apiRouteList) {
    const parameters: unknown[] = [
      ...objectParameters(route.params, 'path', components),
      ...objectParameters(route.query, 'query', components),
      ...objectParameters(route.headers, 'header', components),
      ...objectParameters(route.cookies, 'cookie', components),
      ...(route.challenge ? [proofOfWorkParameter] : []),
    ];
    const responses: Record<string, unknown> = {};
    for (const [status, answer] of Object.entries(route.answers)) {
      const contentType = answer.contentType ?? 'application/json';
      responses[status] = {
        description: answer.description,
        ...(answer.schema && {
          content: { [contentType]: { schema: collect(jsonSchema(answer.schema, 'output'), components) } },
        }),
        ...(!answer.schema && answer.contentType && { content: { [contentType]: {} } }),
        ...(answer.headers && {
          headers: Object.fromEntries(
            Object.entries(answer.headers).map(([name, description]) => [
              name,
              { description, schema: { type: 'string' } },
            ]),
          ),
        }),
      };
    }
    paths[route.path] ??= {};
    paths[route.path]![route.method] = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.auth !== 'none' && { security: [{ bearer: [] }] }),
      ...(parameters.length > 0 && { parameters }),
      ...(route.body && {
        requestBody: {
          required: true,
          content: { 'application/json': { schema: collect(jsonSchema(route.body, 'input'), components) } },
        },
      }),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'QR shirt fundraising API', version: info.version },
    ...(info.serverUrl && { servers: [{ url: info.serverUrl }] }),
    paths,
    components: {
      schemas: components,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
  };
}
