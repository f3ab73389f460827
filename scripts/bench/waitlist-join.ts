/**
 * A command's cost must not grow with its stream: POST /api/waitlist for a shirt that already has
 * 100,000 entries against a shirt that has none, in one embedded process (separate OS process, on
 * its SQLite store) and one run. Every request is a new signup (its own email), so each one
 * decides and appends. The figure is p99(100,000 earlier entries) / p99(no entry); target <= 1.5.
 * The shirts take turns for several rounds and each figure is the median over the rounds, as the
 * machines are shared and noisy.
 *
 * A third shirt holds 100,000 entries as logs written before each signup had its own stream keep
 * them (one `waitlist-<shirtId>` stream): its list is read once per process, on its first join
 * (timed apart), and the joins after it cost what the others do.
 *
 *   npm run bench:waitlist [-- --entries 100000 --seconds 4 --rounds 3 --connections 8]
 */
import { Agent, request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type EventData, eventMetadata } from '@qrshirt/contracts';
import {
  createLookupKeys,
  type EventStore,
  legacyWaitlistStreamName,
  type NewEvent,
  seedCatalog,
  seedCharities,
  seedShirts,
  waitlistSignupStreamName,
} from '@qrshirt/core';
import { eventStoreFile } from '@qrshirt/runtime';
import { createSqliteEventStore } from '@qrshirt/sqlite';
import { solveProofOfWork, startGatewayProcess, TEST_LOOKUP_KEY_SECRET } from '@qrshirt/test-support';

const TARGET_RATIO = 1.5;
/** Signup streams appended per group commit while generating. */
const ROUND = 5_000;
/** Events per append to a legacy list. */
const LEGACY_BATCH = 1_000;
/** The keys of the gateway the bench starts (startGatewayProcess's secret). */
const lookupKeys = createLookupKeys(TEST_LOOKUP_KEY_SECRET);

export interface WaitlistJoinScenario {
  name: string;
  p50Ms: number;
  p99Ms: number;
  requestsPerSecond: number;
  errors: number;
}

export interface WaitlistJoinFigures {
  entries: number;
  connections: number;
  generateSeconds: number;
  /** In the order: no entry (baseline), `entries` earlier entries, `entries` in a legacy list. */
  scenarios: WaitlistJoinScenario[];
  /** Median over rounds of p99(entries) / p99(none). */
  ratio: number;
  /** Median over rounds of p99(legacy list) / p99(none), once its list was read. */
  legacyRatio: number;
  /** The first join on the legacy list after the process started: it reads the whole list. */
  legacyFirstJoinMs: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const round2 = (value: number) => Math.round(value * 100) / 100;
/** A documentation address (RFC 5737) per request of a run, the first one's apart. */
const clientAddress = (index: number) => `198.18.${((index + 1) >> 8) & 255}.${(index + 1) & 255}`;

/** Names and emails in clear, as the bench writes them and the signup's stream name needs them. */
type BenchEntry = EventData<'WaitlistJoined'> & { name: string; email: string };

const joined = (shirtId: string, charityId: string, i: number, size: string): BenchEntry => ({
  entryId: `bench-${shirtId}-${i}`,
  shirtId,
  name: `Bench Person ${i}`,
  email: `person-${i}@bench.example`,
  size,
  charityId,
  at: new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString(),
});

const event = (data: EventData<'WaitlistJoined'>): NewEvent => ({
  type: 'WaitlistJoined',
  data,
  metadata: eventMetadata('WaitlistJoined'),
});

/**
 * Writes what the product would have written: each signup its own stream, appended with
 * expected revision "no stream" as the join does, many per event-loop turn (one group commit);
 * and a legacy list as one long stream.
 */
async function generate(eventStore: EventStore, entries: number, busy: string, legacy: string): Promise<void> {
  await seedCatalog({ eventStore, clock: () => new Date(Date.UTC(2024, 11, 1)) });
  const charityId = seedCharities[0]!.charityId;
  const sizeOf = (shirtId: string) => seedShirts.find((shirt) => shirt.shirtId === shirtId)!.sizes[0]!;
  for (let from = 0; from < entries; from += ROUND) {
    const round = Array.from({ length: Math.min(ROUND, entries - from) }, (_, k) =>
      joined(busy, charityId, from + k, sizeOf(busy)),
    );
    await Promise.all(
      round.map((data) =>
        eventStore.appendToStream(waitlistSignupStreamName(lookupKeys, busy, data), [event(data)], {
          expectedRevision: 'no_stream',
        }),
      ),
    );
  }
  for (let from = 0; from < entries; from += LEGACY_BATCH) {
    const batch = Array.from({ length: Math.min(LEGACY_BATCH, entries - from) }, (_, k) =>
      event(joined(legacy, charityId, from + k, sizeOf(legacy))),
    );
    await eventStore.appendToStream(legacyWaitlistStreamName(legacy), batch);
  }
}

interface Load {
  latenciesMs: number[];
  errors: number;
  seconds: number;
}

/**
 * One POST of a JSON body, with its proof of work and a client address of its own (a client may
 * ask for only so many mails an hour); resolves with the answer's status once its body was read.
 */
function post(url: URL, agent: Agent, payload: string, proof: string, client: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const headers = {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(payload),
      'x-altcha': proof,
      'x-forwarded-for': client,
    };
    const req = request(url, { method: 'POST', agent, headers }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
    req.end(payload);
  });
}

/** `connections` clients, each sending one join after another for `seconds`; each a new signup. */
async function load(
  url: URL,
  agent: Agent,
  body: (serial: number) => string,
  seconds: number,
  connections: number,
): Promise<Load> {
  const latenciesMs: number[] = [];
  let errors = 0;
  let serial = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const index = serial++;
        const payload = body(index);
        // Solved before the clock starts: the figure is the join's, as a browser's widget solves first.
        const proof = await solveProofOfWork(url.origin);
        const sent = performance.now();
        const status = await post(url, agent, payload, proof, clientAddress(index)).catch(() => 0);
        latenciesMs.push(performance.now() - sent);
        if (status !== 201) errors++;
      }
    }),
  );
  return { latenciesMs, errors, seconds: (performance.now() - started) / 1000 };
}

export async function benchWaitlistJoin(
  options: { entries?: number; seconds?: number; rounds?: number; connections?: number } = {},
): Promise<WaitlistJoinFigures> {
  const { entries = 100_000, seconds = 4, rounds = 3, connections = 8 } = options;
  const [fresh, busy, legacy] = seedShirts.map((shirt) => shirt.shirtId);
  if (!fresh || !busy || !legacy) throw new Error('the seeded catalogue needs three shirts');
  const shirts = [
    { name: 'no earlier entry (baseline)', shirtId: fresh },
    { name: `${entries} earlier entries`, shirtId: busy },
    { name: `${entries} earlier entries in a pre-change log (one stream per shirt)`, shirtId: legacy },
  ];
  const dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-bench-waitlist-'));
  const generatedAt = performance.now();
  const eventStore = createSqliteEventStore({ path: eventStoreFile(dataDir), synchronous: 'NORMAL' });
  try {
    await generate(eventStore, entries, busy, legacy);
  } finally {
    await eventStore.close();
  }
  const generateSeconds = (performance.now() - generatedAt) / 1000;

  const gateway = await startGatewayProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, 300_000);
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  try {
    const url = new URL('/api/waitlist', gateway.url);
    const charityId = seedCharities[0]!.charityId;
    let run = 0;
    const bodyFor = (shirtId: string) => {
      const size = seedShirts.find((shirt) => shirt.shirtId === shirtId)!.sizes[0]!;
      const prefix = `r${run++}`;
      return (serial: number) =>
        JSON.stringify({
          shirtId,
          selectedSize: size,
          selectedCharity: charityId,
          name: 'Bench Visitor',
          email: `${prefix}-${serial}@visitor.example`,
        });
    };
    // Its whole list is read on the first join after a start: timed on its own.
    const firstProof = await solveProofOfWork(gateway.url);
    const firstSent = performance.now();
    const firstStatus = await post(url, agent, bodyFor(legacy)(0), firstProof, clientAddress(-1));
    const legacyFirstJoinMs = performance.now() - firstSent;
    if (firstStatus !== 201) throw new Error(`the first join on the legacy list answered ${firstStatus}`);
    // A short warm-up so the JIT and the SQLite page cache favour no shirt.
    for (const shirt of shirts) await load(url, agent, bodyFor(shirt.shirtId), 1, connections);

    const perRound: Load[][] = [];
    for (let round = 0; round < rounds; round++) {
      const figures: Load[] = [];
      for (const shirt of shirts) figures.push(await load(url, agent, bodyFor(shirt.shirtId), seconds, connections));
      perRound.push(figures);
    }
    const p = (figure: Load, at: number) =>
      percentile(
        [...figure.latenciesMs].sort((a, b) => a - b),
        at,
      );
    const scenarios = shirts.map((shirt, index) => ({
      name: shirt.name,
      p50Ms: round2(median(perRound.map((figures) => p(figures[index]!, 50)))),
      p99Ms: round2(median(perRound.map((figures) => p(figures[index]!, 99)))),
      requestsPerSecond: Math.round(
        median(perRound.map((figures) => figures[index]!.latenciesMs.length / figures[index]!.seconds)),
      ),
      errors: perRound.reduce((sum, figures) => sum + figures[index]!.errors, 0),
    }));
    const ratioOf = (index: number) =>
      round2(median(perRound.map((figures) => p(figures[index]!, 99) / p(figures[0]!, 99))));
    return {
      entries,
      connections,
      generateSeconds: round2(generateSeconds),
      scenarios,
      ratio: ratioOf(1),
      legacyRatio: ratioOf(2),
      legacyFirstJoinMs: round2(legacyFirstJoinMs),
    };
  } finally {
    agent.destroy();
    await gateway.terminate();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function formatWaitlistJoinFigures(figures: WaitlistJoinFigures): string {
  const [baseline, busy, legacy] = figures.scenarios;
  const row = (scenario: WaitlistJoinScenario, ratio: string, target: string) =>
    `| ${scenario.name} | ${scenario.requestsPerSecond} | ${scenario.p50Ms} | ${scenario.p99Ms} | ${ratio} | ${target} | ${scenario.errors} |`;
  return [
    `Waitlist join (POST /api/waitlist, a new signup each), embedded process, ${figures.connections} connections, medians over rounds (history generated in ${figures.generateSeconds} s)`,
    '| shirt | joins/s | p50 ms | p99 ms | p99 / baseline p99 | target | errors |',
    '|---|---|---|---|---|---|---|',
    row(baseline!, '1.00', ''),
    row(busy!, figures.ratio.toFixed(2), `<= ${TARGET_RATIO}`),
    row(legacy!, figures.legacyRatio.toFixed(2), ''),
    '',
    `The pre-change log's list is read once per process: its first join took ${figures.legacyFirstJoinMs} ms.`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      entries: { type: 'string', default: '100000' },
      seconds: { type: 'string', default: '4' },
      rounds: { type: 'string', default: '3' },
      connections: { type: 'string', default: '8' },
    },
  });
  const figures = await benchWaitlistJoin({
    entries: Number(values.entries),
    seconds: Number(values.seconds),
    rounds: Number(values.rounds),
    connections: Number(values.connections),
  });
  console.log(formatWaitlistJoinFigures(figures));
  if (figures.ratio > TARGET_RATIO) {
    console.error(`p99 ratio ${figures.ratio} is above the target ${TARGET_RATIO}`);
    process.exitCode = 1;
  }
}
