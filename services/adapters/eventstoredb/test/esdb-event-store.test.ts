import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { StartedTestContainer } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { infraRequired, scaled } from '@qrshirt/test-support';
import { COPY_OF, type CopyingLog, createClearDataSealer, migrateLogByCopies } from '@qrshirt/core';
import { createEventStoreDbEventStore } from '../src/esdb-event-store';
import { openEventStoreDbCopyingLog } from '../src/esdb-log-copies';
import { describeEventStoreContract } from '@qrshirt/core/testing';

// The server docker-compose.yml runs: one version is tested and deployed.
const IMAGE = process.env.EVENTSTORE_IMAGE ?? 'kurrentplatform/kurrentdb:25.1';
const PING_TIMEOUT_MS = scaled(1_000);

type Target = { url: string } | { docker: true } | { skip: string };

const target = await findEventStore();

if ('skip' in target && !infraRequired('eventstore')) {
  console.warn(`[esdb] skipped: ${target.skip}`);
  describe.skip(`EventStoreDB event store (skipped: ${target.skip})`, () => {
    describeEventStoreContract('esdb', () => createEventStoreDbEventStore({ connectionString: 'esdb://unused' }));
  });
} else {
  describe('EventStoreDB event store', () => {
    let connectionString = 'url' in target ? target.url : '';
    let container: StartedTestContainer | undefined;

    beforeAll(async () => {
      if ('skip' in target) throw new Error(`REQUIRE_INFRA names eventstore, but ${target.skip}`);
      if ('docker' in target) {
        // Loaded only here: machines without Docker never pay for it.
        const { GenericContainer, Wait } = await import('testcontainers');
        container = await new GenericContainer(IMAGE)
          .withEnvironment({
            KURRENTDB_INSECURE: 'true',
            KURRENTDB_MEM_DB: 'true',
            KURRENTDB_RUN_PROJECTIONS: 'None',
          })
          .withExposedPorts(2113)
          .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCodeMatching((status) => status < 300))
          .withStartupTimeout(scaled(120_000))
          .start();
        connectionString = `esdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`;
      }
    });
    afterAll(async () => {
      await container?.stop();
    });

    describeEventStoreContract('esdb', () => createEventStoreDbEventStore({ connectionString }));

    it('migrates a stream holding clear personal data to sealed copies, truncated before them ($tb)', async () => {
      const store = createEventStoreDbEventStore({ connectionString });
      const userId = randomUUID();
      const stream = `user-${userId}`;
      const at = '2024-06-01T09:00:00.000Z';
      await store.appendToStream(stream, [
        {
          type: 'UserRegistered',
          data: {
            userId,
            email: 'clara.voss@post.example',
            displayName: 'Clara Voss',
            photoURL: null,
            method: 'password',
            at,
          },
        },
        { type: 'DailySummarySet', data: { userId, enabled: true, via: 'profile', at } },
      ]);
      const original = await store.readStream(stream);
      const copying = openEventStoreDbCopyingLog({ connectionString });
      // Only this test's stream: EVENTSTORE_URL may name a server holding other data.
      const log: CopyingLog = {
        ...copying,
        async *readAllOf(types) {
          for await (const event of copying.readAllOf(types)) if (event.streamName === stream) yield event;
        },
      };
      const keys = new Map<string, Buffer | null>();
      const sealer = createClearDataSealer({
        keys: {
          async personalDataKey(subject, candidate) {
            if (!keys.has(subject)) keys.set(subject, candidate);
            return keys.get(subject) ?? null;
          },
          personalDataKeys: async () => new Map(),
          erasePersonalDataKey: async () => true,
        },
      });
      try {
        expect(await migrateLogByCopies({ log, sealer })).toMatchObject({ rewrittenStreams: 1, copiedEvents: 2 });
        const live = await store.readStream(stream);
        expect(live.map((event) => [event.revision, event.type, event.metadata[COPY_OF]])).toEqual([
          [2, 'UserRegistered', original[0]!.id],
          [3, 'DailySummarySet', original[1]!.id],
        ]);
        expect(JSON.stringify(live)).not.toMatch(/Clara Voss|clara\.voss/);
        expect(await migrateLogByCopies({ log, sealer })).toMatchObject({ rewrittenStreams: 0, copiedEvents: 0 });
        expect(await store.readStream(stream)).toEqual(live);
      } finally {
        await copying.close();
        await store.close();
      }
    });
  });
}

// Needs no server, so it runs everywhere: what callers see while EventStoreDB is down.
describe('EventStoreDB event store, server unreachable', () => {
  it('rejects calls instead of hanging, and a subscription stops cleanly while it is down', async () => {
    const store = createEventStoreDbEventStore({
      connectionString: 'esdb://127.0.0.1:1?tls=false&defaultDeadline=3000',
    });
    await expect(store.readStream('fundraiser-1')).rejects.toThrow(/unavailable/i);
    await expect(store.appendToStream('fundraiser-1', [{ type: 'FundraiserCreated', data: {} }])).rejects.toThrow(
      /unavailable/i,
    );
    let calls = 0;
    const subscription = store.subscribe({ onEvents: () => void calls++ });
    // Stopped while it retries, which nothing shows from outside: this lets it fail once first.
    // Whenever it is stopped, it must end cleanly, and nothing can be handed from port 1.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await subscription.stop();
    await expect(subscription.done).resolves.toBeUndefined();
    expect(calls).toBe(0);
    await store.close();
    await expect(store.readAll()).rejects.toThrow(/closed/);
  });
});

/** EVENTSTORE_URL if set, else a Docker engine that answers a ping quickly, else why not. */
async function findEventStore(): Promise<Target> {
  const url = process.env.EVENTSTORE_URL;
  if (url) return { url };
  const engine = dockerEndpoints().find((endpoint) => 'host' in endpoint || existsSync(endpoint.socketPath));
  if (engine && (await answersPing(engine))) return { docker: true };
  return { skip: 'EVENTSTORE_URL not set and no Docker engine answers' };
}

type DockerEndpoint = { socketPath: string } | { host: string; port: number };

function dockerEndpoints(): DockerEndpoint[] {
  const dockerHost = process.env.DOCKER_HOST;
  if (dockerHost?.startsWith('tcp://')) {
    const { hostname, port } = new URL(dockerHost.replace('tcp://', 'http://'));
    return [{ host: hostname, port: Number(port || 2375) }];
  }
  if (dockerHost?.startsWith('unix://')) return [{ socketPath: dockerHost.slice('unix://'.length) }];
  const runtimeDir = process.env.XDG_RUNTIME_DIR;
  return [
    { socketPath: '/var/run/docker.sock' },
    ...(runtimeDir ? [{ socketPath: join(runtimeDir, 'docker.sock') }] : []),
    { socketPath: join(homedir(), '.docker', 'run', 'docker.sock') },
  ];
}

function answersPing(endpoint: DockerEndpoint): Promise<boolean> {
  return new Promise((resolve) => {
    const ping = request({ ...endpoint, path: '/_ping', timeout: PING_TIMEOUT_MS }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    ping.on('timeout', () => ping.destroy());
    ping.on('error', () => resolve(false));
    ping.end();
  });
}
