import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type EventType, SCHEMA_VERSION, eventMetadata, personalDataFields } from '@qrshirt/contracts';
import { createInMemoryEventStore, createLookupKeys, type EventStore, type StoredEvent } from '@qrshirt/core';
import { afterEach, beforeEach, expect } from 'vitest';
import { loadConfig } from '../../src/config';
import { createEmbeddedProcess, type EmbeddedProcess } from '../../src/embedded';
import {
  type ApiAnswer,
  createApiClient,
  type RequestOptions,
  TEST_ALTCHA_MAX_NUMBER,
  TEST_PASSWORD_SCRYPT_N,
  TEST_JWT_SECRET,
  TEST_LOOKUP_KEY_SECRET,
  TEST_WEBHOOK_SECRET,
  WAIT_MS,
} from '@qrshirt/test-support';

/** The lookup keys of the gateway a specification runs: histories name their streams with them. */
export const lookupKeys = createLookupKeys(TEST_LOOKUP_KEY_SECRET);

/** An event of the history a specification starts from. */
export interface GivenEvent {
  stream: string;
  type: EventType;
  data: Record<string, unknown>;
  /** The schema version it was written with, for histories of old logs; the current one if omitted. */
  schemaVersion?: number;
}

/** What a specification expects: the answer, and the events the request appended, in order. */
export interface Then {
  status: number;
  /** Matched with toMatchObject: name what matters. */
  body?: unknown;
  /** The new events, each matched with toMatchObject; [] for a request that must append nothing. */
  events?: { stream?: string; type: string; data?: Record<string, unknown> }[];
}

interface ApiSpecification {
  given(...events: GivenEvent[]): {
    when(
      method: string,
      path: string,
      options?: RequestOptions,
    ): { then(expected: Then): Promise<{ answer: ApiAnswer; events: StoredEvent[] }> };
  };
  close(): Promise<void>;
}

/**
 * Given-events API specifications in Emmett's style: given a history (appended to an in-memory
 * event store and projected), when a request reaches the whole gateway, then this answer and
 * these new events (their names and emails revealed, after checking the log holds them sealed).
 * Each specification starts from an empty log: no seeded catalogue.
 */
export async function apiSpecification(
  options: { env?: Record<string, string>; clock?: () => Date } = {},
): Promise<ApiSpecification> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-spec-'));
  const eventStore: EventStore = createInMemoryEventStore(options.clock ? { now: options.clock } : {});
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    OPS_PORT: '0',
    LOG_LEVEL: 'silent',
    SEED_CATALOG: 'false',
    AUTH_JWT_SECRET: TEST_JWT_SECRET,
    LOOKUP_KEY_SECRET: TEST_LOOKUP_KEY_SECRET,
    DONATION_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    ALTCHA_MAX_NUMBER: TEST_ALTCHA_MAX_NUMBER,
    PASSWORD_SCRYPT_N: TEST_PASSWORD_SCRYPT_N,
    ...options.env,
  });
  const embedded: EmbeddedProcess = await createEmbeddedProcess(config, {
    eventStore,
    ...(options.clock && { clock: options.clock }),
  });
  const { url } = await embedded.listen();
  const api = createApiClient(url);
  return {
    given(...events) {
      return {
        when(method, requestPath, requestOptions) {
          return {
            async then(expected) {
              for (const event of events) {
                await eventStore.appendToStream(event.stream, [
                  {
                    type: event.type,
                    data: event.data,
                    metadata:
                      event.schemaVersion === undefined
                        ? eventMetadata(event.type)
                        : { [SCHEMA_VERSION]: event.schemaVersion },
                  },
                ]);
              }
              await embedded.projectionsCaughtUp(WAIT_MS);
              const head = await eventStore.headPosition();
              const answer = await api(method, requestPath, requestOptions);
              const stored = await eventStore.readAll({ after: head });
              // The log holds names and emails sealed; the specification states them as people see them.
              const appended = await embedded.personalData.revealEvents(stored);
              stored.forEach((event, i) => {
                for (const field of Object.keys(personalDataFields[event.type as EventType] ?? {})) {
                  const clear = (appended[i]!.data as Record<string, unknown>)[field];
                  if (typeof clear !== 'string') continue;
                  // Sealed, `pd1.<subject>.<ciphertext>`: only the subject is readable. The ciphertext,
                  // opened above under its key, is random bytes, where a short value ("Bo") may turn
                  // up by chance.
                  const sealed = String((event.data as Record<string, unknown>)[field]);
                  const what = `${event.type}.${field}`;
                  expect(sealed, what).toMatch(/^pd1\..+\.[A-Za-z0-9_-]+$/);
                  expect(sealed.slice(0, sealed.lastIndexOf('.')), what).not.toContain(clear);
                }
              });
              expect(answer.status, JSON.stringify(answer.body)).toBe(expected.status);
              if (expected.body !== undefined) expect(answer.body).toMatchObject(expected.body as object);
              if (expected.events) {
                expect(
                  appended.map(({ streamName, type, data }) => ({ stream: streamName, type, data })),
                ).toMatchObject(expected.events);
                expect(appended).toHaveLength(expected.events.length);
              }
              return { answer, events: appended };
            },
          };
        },
      };
    },
    async close() {
      await embedded.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A specification for each test of the calling file: started from an empty log before each test
 * and closed after it, so no test sees another's history.
 */
export function apiSpecificationPerTest(
  options: Parameters<typeof apiSpecification>[0] = {},
): Pick<ApiSpecification, 'given'> {
  let current: ApiSpecification | undefined;
  beforeEach(async () => {
    current = await apiSpecification(options);
  });
  afterEach(() => current?.close());
  return {
    given: (...events) => {
      if (!current) throw new Error('a specification runs inside a test');
      return current.given(...events);
    },
  };
}
