/**
 * A command's cost must not grow with its stream: each command is measured against an aggregate
 * with `--earlier` (100,000) earlier commands of its kind and against a new one, over HTTP against
 * the gateway in its own process on an embedded SQLite store generated beforehand, and reported
 * as the p99 latency at 100,000 divided by the p99 at 0 (target: at most 1.5).
 *
 * Every client alternates between the two aggregates request by request, so whatever else the
 * machine does falls on both alike; each figure is the median over several rounds (ratios taken
 * within each round). Each round's new aggregate is another never-used one, so "at 0" starts from
 * nothing every round.
 *
 * Each command is one row of `commandScenarios`: a second one (the waitlist's join) is a second
 * entry with its own history and request.
 *
 *   npm run bench:commands [-- --earlier 100000 --requests 1500 --rounds 5 --concurrency 8]
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type EventData, type EventType, eventMetadata } from '@qrshirt/contracts';
import { type EventStore, type NewEvent, seedCatalog, seedCharities, seedShirts } from '@qrshirt/core';
import { createSqliteEventStore } from '@qrshirt/sqlite';
import { startGatewayProcess } from '@qrshirt/test-support';
import { runDirectly } from './cli';

export const TARGET_RATIO = 1.5;
/** Appends per group commit while generating the history. */
const APPENDS_PER_ROUND = 2_000;

const newEvent = <T extends EventType>(type: T, data: EventData<T>): NewEvent => ({
  type,
  data,
  metadata: eventMetadata(type),
});

/** Appends `appends` a group commit at a time. */
async function appendAll(store: EventStore, appends: Iterable<{ stream: string; events: NewEvent[] }>) {
  let round: Promise<unknown>[] = [];
  for (const { stream, events } of appends) {
    round.push(store.appendToStream(stream, events));
    if (round.length >= APPENDS_PER_ROUND) {
      await Promise.all(round);
      round = [];
    }
  }
  await Promise.all(round);
}

export interface CommandRequest {
  method: 'POST' | 'PUT' | 'PATCH';
  path: string;
  headers?: Record<string, string>;
  body: unknown;
}

/** One command measured: how its earlier history is written, and one request of it. */
export interface CommandScenario {
  name: string;
  /**
   * Writes, as the product would have, an aggregate with `earlier` commands behind it and
   * `fresh` aggregates with none; answers their ids.
   */
  prepare(store: EventStore, earlier: number, fresh: number): Promise<{ busy: string; fresh: string[] }>;
  /** A new command (not a retry) to the aggregate `id`; `n` counts them. */
  request(id: string, n: number): CommandRequest;
}

const at = new Date(Date.UTC(2026, 0, 1)).toISOString();

/** Donor `n`'s address, which the gateway believes in X-Forwarded-For from loopback. */
const donorAddress = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

/** POST /api/fundraisers/{id}/donate: the page's report of a widget's donation, each with its own key. */
const donate: CommandScenario = {
  name: 'POST /api/fundraisers/{id}/donate',
  async prepare(store, earlier, freshCount) {
    const [charity] = seedCharities;
    const [shirt] = seedShirts;
    const created = (fundraiserId: string) => ({
      stream: `fundraiser-${fundraiserId}`,
      events: [
        newEvent('FundraiserCreated', {
          fundraiserId,
          userId: 'bench-owner',
          charityId: charity!.charityId,
          shirtId: shirt!.shirtId,
          name: 'Bench shirt',
          at,
        }),
      ],
    });
    const busy = randomUUID();
    const fresh = Array.from({ length: freshCount }, () => randomUUID());
    await appendAll(store, [busy, ...fresh].map(created));
    // Each earlier donation as it happens: the page's report, then the processor's confirmation
    // settling it, then the confirmed donation, each in its own stream.
    function* donations() {
      for (let i = 0; i < earlier; i++) {
        const reportId = randomUUID();
        const donationId = `pi_bench_${i}`;
        const amountCents = 500 + (i % 5_000);
        yield {
          stream: `donation-report-${reportId}`,
          events: [
            newEvent('DonationReported', {
              reportId,
              fundraiserId: busy,
              amountCents,
              currency: 'USD',
              source: 'widget',
              idempotencyKey: `earlier-${i}`,
              confirmedBy: null,
              at,
            }),
            newEvent('DonationReportConfirmed', {
              reportId,
              fundraiserId: busy,
              donationId,
              pendingCents: amountCents,
              at,
            }),
          ],
        };
        yield {
          stream: `processor-donation-${donationId}`,
          events: [
            newEvent('DonationConfirmed', {
              donationId,
              fundraiserId: busy,
              amountCents,
              currency: 'USD',
              reportId,
              at,
            }),
          ],
        };
      }
    }
    await appendAll(store, donations());
    return { busy, fresh };
  },
  request(id, n) {
    return {
      method: 'POST',
      path: `/api/fundraisers/${id}/donate`,
      // Each from a donor of their own: one address may report 60 donations a minute.
      headers: { 'Idempotency-Key': `bench-${n}-${randomUUID()}`, 'X-Forwarded-For': donorAddress(n) },
      body: { amount: 5 + (n % 100), source: 'widget' },
    };
  },
};

export const commandScenarios: CommandScenario[] = [donate];

export interface CommandFigure {
  name: string;
  earlier: number;
  /** Median over the rounds of each round's p99 (and p50), in milliseconds. */
  p99AtZeroMs: number;
  p99AtEarlierMs: number;
  p50AtZeroMs: number;
  p50AtEarlierMs: number;
  /** Median over the rounds of p99 at `earlier` divided by p99 at 0, within each round. */
  ratio: number;
  requestsPerRound: number;
  rounds: number;
  errors: number;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Measured {
  p99: number;
  p50: number;
  errors: number;
}

/**
 * `requests` commands to each of `ids` from `concurrency` clients at once, each client
 * alternating between the ids, so that whatever else the machine does falls on all of them
 * alike; the latencies' p99 and p50 per id, and the failures.
 */
async function measure(
  url: string,
  scenario: CommandScenario,
  ids: readonly string[],
  requests: number,
  concurrency: number,
): Promise<Measured[]> {
  const latencies = ids.map((): number[] => []);
  const errors = ids.map(() => 0);
  let next = 0;
  const total = requests * ids.length;
  const client = async () => {
    for (let n = next++; n < total; n = next++) {
      const target = n % ids.length;
      const { method, path, headers, body } = scenario.request(ids[target]!, n);
      const started = performance.now();
      const answer = await fetch(url + path, {
        method,
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      await answer.arrayBuffer();
      latencies[target]!.push(performance.now() - started);
      if (answer.status >= 300) errors[target]! += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  return ids.map((_, index) => ({
    p99: percentile(latencies[index]!, 99),
    p50: percentile(latencies[index]!, 50),
    errors: errors[index]!,
  }));
}

export async function benchCommands(options: {
  earlier: number;
  requests: number;
  rounds: number;
  concurrency: number;
  log?: (line: string) => void;
}): Promise<CommandFigure[]> {
  const log = options.log ?? (() => {});
  const figures: CommandFigure[] = [];
  for (const scenario of commandScenarios) {
    const dataDir = mkdtempSync(join(tmpdir(), 'qrshirt-bench-commands-'));
    try {
      // Generated with synchronous=NORMAL: nothing here must survive a power cut; the gateway
      // then runs with FULL, as the product does.
      const store = createSqliteEventStore({ path: join(dataDir, 'events.sqlite'), synchronous: 'NORMAL' });
      const started = performance.now();
      await seedCatalog({ eventStore: store, clock: () => new Date(at) });
      const { busy, fresh } = await scenario.prepare(store, options.earlier, options.rounds + 1);
      const head = await store.headPosition();
      await store.close();
      log(`${scenario.name}: ${head} events generated in ${((performance.now() - started) / 1000).toFixed(0)} s`);

      const gateway = await startGatewayProcess(
        { DATA_DIR: dataDir, LOG_LEVEL: 'warn', SEED_CATALOG: 'false' },
        300_000,
      );
      try {
        // Warm-up, on an aggregate of its own, so the JIT and the page cache favour neither.
        await measure(gateway.url, scenario, [fresh[0]!, busy], Math.min(500, options.requests), options.concurrency);
        const rounds: { atZero: number; atEarlier: number; p50AtZero: number; p50AtEarlier: number }[] = [];
        let errors = 0;
        for (let round = 0; round < options.rounds; round++) {
          const [zero, full] = await measure(
            gateway.url,
            scenario,
            [fresh[round + 1]!, busy],
            options.requests,
            options.concurrency,
          );
          errors += zero!.errors + full!.errors;
          rounds.push({ atZero: zero!.p99, atEarlier: full!.p99, p50AtZero: zero!.p50, p50AtEarlier: full!.p50 });
          log(
            `  round ${round + 1}: p99 ${zero!.p99.toFixed(2)} ms at 0, ${full!.p99.toFixed(2)} ms at ${options.earlier}`,
          );
        }
        figures.push({
          name: scenario.name,
          earlier: options.earlier,
          p99AtZeroMs: median(rounds.map((round) => round.atZero)),
          p99AtEarlierMs: median(rounds.map((round) => round.atEarlier)),
          p50AtZeroMs: median(rounds.map((round) => round.p50AtZero)),
          p50AtEarlierMs: median(rounds.map((round) => round.p50AtEarlier)),
          ratio: median(rounds.map((round) => round.atEarlier / round.atZero)),
          requestsPerRound: options.requests,
          rounds: options.rounds,
          errors,
        });
      } finally {
        await gateway.terminate();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return figures;
}

export function formatCommandFigures(figures: CommandFigure[], concurrency: number): string {
  const [first] = figures;
  const rows = figures.map(
    (figure) =>
      `| ${figure.name} | ${figure.p99AtZeroMs.toFixed(2)} | ${figure.p99AtEarlierMs.toFixed(2)} | ` +
      `${figure.ratio.toFixed(2)} | ${figure.ratio <= TARGET_RATIO ? 'yes' : 'NO'} | ` +
      `${figure.p50AtZeroMs.toFixed(2)} / ${figure.p50AtEarlierMs.toFixed(2)} | ${figure.errors} |`,
  );
  return [
    `Commands against an aggregate with ${first?.earlier.toLocaleString('en-US') ?? '?'} earlier commands and a new one, ` +
      `HTTP, gateway in its own process (embedded SQLite), ${concurrency} clients, ` +
      `${first?.requestsPerRound ?? '?'} requests per target per round, medians over ${first?.rounds ?? '?'} rounds`,
    `| command | p99 ms at 0 | p99 ms at ${first?.earlier.toLocaleString('en-US') ?? '?'} | ratio | within ${TARGET_RATIO} | p50 ms at 0 / at ${first?.earlier.toLocaleString('en-US') ?? '?'} | errors |`,
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

if (runDirectly(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      earlier: { type: 'string', default: '100000' },
      requests: { type: 'string', default: '1500' },
      rounds: { type: 'string', default: '5' },
      concurrency: { type: 'string', default: '8' },
    },
  });
  const concurrency = Number(values.concurrency);
  const figures = await benchCommands({
    earlier: Number(values.earlier),
    requests: Number(values.requests),
    rounds: Number(values.rounds),
    concurrency,
    log: (line) => console.error(line),
  });
  console.log(formatCommandFigures(figures, concurrency));
  if (figures.some((figure) => figure.errors > 0 || figure.ratio > TARGET_RATIO)) process.exitCode = 1;
}
