/**
 * HTTP benchmark of the embedded process: requests/s and p99 of the hot routes, each as a ratio
 * to a trivial route (/healthz) measured in the same run, since absolute figures vary by machine.
 * The machines are noisy, so the routes take turns with the baseline for several short rounds
 * and each figure is the median over the rounds (ratios taken within each round).
 * Run: npm run bench:http [-- --seconds 4 --rounds 3 --connections 50]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { as, createApiClient, createFundraiser, signUp, startGatewayProcess } from '@qrshirt/test-support';
import { roundOptions, runDirectly } from './cli';

export interface RouteFigure {
  name: string;
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  ratio: number;
}

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
}

async function measure(url: string, scenario: Scenario, seconds: number, connections: number) {
  const result = await autocannon({
    url: url + scenario.path,
    method: scenario.method,
    ...(scenario.headers && { headers: scenario.headers }),
    connections,
    duration: seconds,
  });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function benchHttp(options: {
  seconds: number;
  rounds: number;
  connections: number;
}): Promise<RouteFigure[]> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-bench-'));
  // Logs at warn: request lines would cost the same on every route, and the pipe to this process.
  const gateway = await startGatewayProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  try {
    const api = createApiClient(gateway.url);
    const owner = await signUp(api);
    const fundraiser = await createFundraiser(api, as(owner));
    const scenarios: Scenario[] = [
      { name: 'baseline GET /healthz', method: 'GET', path: '/healthz' },
      { name: 'POST /api/fundraisers/{id}/scan', method: 'POST', path: `/api/fundraisers/${fundraiser.id}/scan` },
      { name: 'GET /api/fundraisers/{id}', method: 'GET', path: `/api/fundraisers/${fundraiser.id}` },
      { name: 'GET /api/shirts', method: 'GET', path: '/api/shirts' },
      {
        name: "GET /api/fundraisers/{id}/stats, owner's token",
        method: 'GET',
        path: `/api/fundraisers/${fundraiser.id}/stats`,
        headers: { authorization: `Bearer ${owner.accessToken}` },
      },
    ];
    // A short warm-up so the JIT and the SQLite page cache do not favour whichever runs last.
    for (const scenario of scenarios) await measure(gateway.url, scenario, 1, options.connections);
    const rounds: Awaited<ReturnType<typeof measure>>[][] = [];
    for (let round = 0; round < options.rounds; round++) {
      const figures = [];
      for (const scenario of scenarios)
        figures.push(await measure(gateway.url, scenario, options.seconds, options.connections));
      rounds.push(figures);
    }
    return scenarios.map((scenario, index) => ({
      name: scenario.name,
      requestsPerSecond: median(rounds.map((figures) => figures[index]!.requestsPerSecond)),
      p99Ms: median(rounds.map((figures) => figures[index]!.p99Ms)),
      errors: rounds.reduce((sum, figures) => sum + figures[index]!.errors, 0),
      ratio: median(rounds.map((figures) => figures[index]!.requestsPerSecond / figures[0]!.requestsPerSecond)),
    }));
  } finally {
    await gateway.terminate();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function formatHttpFigures(figures: RouteFigure[], connections: number): string {
  const rows = figures.map(
    (figure) =>
      `| ${figure.name} | ${Math.round(figure.requestsPerSecond)} | ${figure.p99Ms} | ${figure.ratio.toFixed(2)} | ${figure.errors} |`,
  );
  return [
    `HTTP, embedded process, ${connections} connections, medians over rounds`,
    '| route | req/s | p99 ms | ratio to baseline | errors |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

if (runDirectly(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      ...roundOptions,
      connections: { type: 'string', default: '50' },
    },
  });
  const connections = Number(values.connections);
  const figures = await benchHttp({ seconds: Number(values.seconds), rounds: Number(values.rounds), connections });
  console.log(formatHttpFigures(figures, connections));
}
