/**
 * HTTP benchmark of the embedded process: requests/s and p99 of the hot routes, each as a ratio
 * to a trivial route (/healthz) measured in the same run, since absolute figures vary by machine.
 * The scan route is also measured against three other servers given the same request: Node's own
 * HTTP server answering 202 (nothing in Node answers faster), the durable floor (the least a scan
 * stored before its 202 can cost: hashes and a group-committed row, no rules) and the route as an
 * Emmett user would write it (Express 5 and emmett-sqlite, http-peers/), each with the CPU it
 * spent per scan on its main thread and on its others. Every server runs in its own process, none
 * in the load generator's. The machines are noisy, so the servers take turns for several short
 * rounds and each figure is the median over the rounds (ratios taken within each round).
 * Run: npm run bench:http [-- --seconds 4 --rounds 3 --connections 50]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import {
  as,
  createApiClient,
  createFundraiser,
  freePort,
  killUnlessReady,
  type LaunchedProcess,
  launchProcess,
  signUp,
  startGatewayProcess,
  waitForLine,
} from '@qrshirt/test-support';
import { roundOptions, runDirectly } from './cli';
import { scanLoad } from './scanners';
import { cpuPerRequest, type ThreadCpu, threadCpu } from './thread-cpu';

export interface RouteFigure {
  name: string;
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  ratio: number;
}

/** A server the scan route is compared with: `ratio` is the scan route's requests/s over its. */
export interface PeerFigure extends RouteFigure {
  target: string;
  /** Medians over the rounds, µs of CPU per request; undefined where /proc is not there. */
  cpu?: ThreadCpu;
}

export interface HttpFigures {
  routes: RouteFigure[];
  peers: PeerFigure[];
  /** The gateway's CPU per scan, as the peers'. */
  scanCpu?: ThreadCpu;
}

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Requests each connection sends in turn instead of the one above, and how each connection is set up for them. */
  requests?: autocannon.Request[];
  setupClient?: autocannon.Options['setupClient'];
}

/** What every server is sent as a scan: a POST with a tiny JSON body, from many scanners. */
const scanRequest = (path: string) =>
  ({
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json' },
    body: '{}',
    ...scanLoad(() => path),
  }) as const;

/** `pid`: the server's process, whose CPU per request is measured too. */
async function measure(url: string, scenario: Scenario, seconds: number, connections: number, pid?: number) {
  const before = pid === undefined ? undefined : threadCpu(pid);
  const result = await autocannon({
    url: url + scenario.path,
    method: scenario.method,
    ...(scenario.headers && { headers: scenario.headers }),
    ...(scenario.body !== undefined && { body: scenario.body }),
    ...(scenario.requests && { requests: scenario.requests, setupClient: scenario.setupClient }),
    connections,
    duration: seconds,
  });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    cpu: pid === undefined ? undefined : cpuPerRequest(before, threadCpu(pid), result.requests.total),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Peer {
  name: string;
  /** Its entry in http-peers/. */
  file: string;
  /** The least the scan route's requests/s over this server's may be; none for raw node:http (issue 33). */
  atLeast?: number;
}

const peers: Peer[] = [
  { name: 'raw node:http answering 202', file: 'raw-node-http.ts' },
  {
    name: 'durable floor: node:http, visitor hashes, one row per scan group-committed by a worker thread (WAL, synchronous=FULL), 202 after commit',
    file: 'durable-floor.ts',
    atLeast: 0.75,
  },
  {
    name: 'Express 5 + @event-driven-io/emmett-sqlite, one event appended per scan, one append at a time',
    file: 'emmett-sqlite-express.ts',
    atLeast: 20,
  },
];

/** A peer in its own process on a free loopback port, once it listens. */
async function startPeer(peer: Peer, dataDir: string): Promise<LaunchedProcess & { url: string }> {
  const port = await freePort();
  const launched = launchProcess({
    name: peer.name,
    entry: fileURLToPath(new URL(`http-peers/${peer.file}`, import.meta.url)),
    env: { PORT: String(port), EVENTS_FILE: path.join(dataDir, `${peer.file}.sqlite`) },
  });
  await killUnlessReady(
    launched,
    waitForLine(launched, (line) => line === 'listening'),
  );
  return Object.assign(launched, { url: `http://127.0.0.1:${port}` });
}

export async function benchHttp(options: {
  seconds: number;
  rounds: number;
  connections: number;
}): Promise<HttpFigures> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-bench-'));
  const started: LaunchedProcess[] = [];
  try {
    // Logs at warn: request lines would cost the same on every route, and the pipe to this process.
    const gateway = await startGatewayProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
    started.push(gateway);
    const peerServers = [];
    for (const peer of peers) {
      const server = await startPeer(peer, dataDir);
      started.push(server);
      peerServers.push(server);
    }
    const api = createApiClient(gateway.url);
    const owner = await signUp(api);
    const fundraiser = await createFundraiser(api, as(owner));
    const scanPath = `/api/fundraisers/${fundraiser.id}/scan`;
    const SCAN = 1;
    const scenarios: Scenario[] = [
      { name: 'baseline GET /healthz', method: 'GET', path: '/healthz' },
      { name: 'POST /api/fundraisers/{id}/scan', ...scanRequest(scanPath) },
      { name: 'GET /api/fundraisers/{id}', method: 'GET', path: `/api/fundraisers/${fundraiser.id}` },
      { name: 'GET /api/shirts', method: 'GET', path: '/api/shirts' },
      {
        name: "GET /api/fundraisers/{id}/stats, owner's token",
        method: 'GET',
        path: `/api/fundraisers/${fundraiser.id}/stats`,
        headers: { authorization: `Bearer ${owner.accessToken}` },
      },
    ];
    // The scans' CPU is measured per thread, on every server sent them.
    const targets = [
      ...scenarios.map((scenario, index) => ({
        url: gateway.url,
        scenario,
        ...(index === SCAN && { pid: gateway.pid }),
      })),
      ...peerServers.map((server, index) => ({
        url: server.url,
        scenario: { name: peers[index]!.name, ...scanRequest(scanPath) },
        pid: server.pid,
      })),
    ];
    // A short warm-up so the JIT and the SQLite page cache do not favour whichever runs last.
    for (const { url, scenario } of targets) await measure(url, scenario, 1, options.connections);
    const rounds: Awaited<ReturnType<typeof measure>>[][] = [];
    for (let round = 0; round < options.rounds; round++) {
      const figures = [];
      for (const { url, scenario, pid } of targets)
        figures.push(await measure(url, scenario, options.seconds, options.connections, pid));
      rounds.push(figures);
    }
    const cpuOf = (index: number): ThreadCpu | undefined => {
      const measured = rounds.map((figures) => figures[index]!.cpu);
      if (measured.some((cpu) => cpu === undefined)) return undefined;
      return {
        main: median(measured.map((cpu) => cpu!.main)),
        others: median(measured.map((cpu) => cpu!.others)),
      };
    };
    const figureOf = (index: number, ratio: (figures: Awaited<ReturnType<typeof measure>>[]) => number) => ({
      name: targets[index]!.scenario.name,
      requestsPerSecond: median(rounds.map((figures) => figures[index]!.requestsPerSecond)),
      p99Ms: median(rounds.map((figures) => figures[index]!.p99Ms)),
      errors: rounds.reduce((sum, figures) => sum + figures[index]!.errors, 0),
      ratio: median(rounds.map(ratio)),
    });
    return {
      routes: scenarios.map((_scenario, index) =>
        figureOf(index, (figures) => figures[index]!.requestsPerSecond / figures[0]!.requestsPerSecond),
      ),
      peers: peers.map((peer, index) => ({
        ...figureOf(
          scenarios.length + index,
          (figures) => figures[SCAN]!.requestsPerSecond / figures[scenarios.length + index]!.requestsPerSecond,
        ),
        target: peer.atLeast === undefined ? '' : `>= ${peer.atLeast}`,
        cpu: cpuOf(scenarios.length + index),
      })),
      scanCpu: cpuOf(SCAN),
    };
  } finally {
    await Promise.all(started.map((server) => server.terminate()));
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function formatHttpFigures(figures: HttpFigures, connections: number): string {
  const routes = figures.routes.map(
    (figure) =>
      `| ${figure.name} | ${Math.round(figure.requestsPerSecond)} | ${figure.p99Ms} | ${figure.ratio.toFixed(2)} | ${figure.errors} |`,
  );
  const scan = figures.routes[1]!;
  const cpu = (measured: ThreadCpu | undefined) =>
    measured ? `${measured.main.toFixed(1)} / ${measured.others.toFixed(1)}` : 'n/a';
  const peerRows = figures.peers.map(
    (figure) =>
      `| ${figure.name} | ${Math.round(figure.requestsPerSecond)} | ${figure.p99Ms} | ${figure.errors} | ${cpu(figure.cpu)} | ${figure.ratio.toFixed(2)} | ${figure.target} |`,
  );
  return [
    `HTTP, embedded process, ${connections} connections, medians over rounds`,
    '| route | req/s | p99 ms | ratio to baseline | errors |',
    '|---|---|---|---|---|',
    ...routes,
    '',
    `The scan route against other servers sent the same POST with a 2-byte JSON body, each in its own process, ${connections} connections, medians over rounds; ` +
      "CPU: the server's, per request, on the thread running its JavaScript / on its other threads (a writer thread, the garbage collector's helpers)",
    '| server | req/s | p99 ms | errors | CPU µs per request: main / other threads | scan route req/s / this | target |',
    '|---|---|---|---|---|---|---|',
    `| ${scan.name}, this gateway | ${Math.round(scan.requestsPerSecond)} | ${scan.p99Ms} | ${scan.errors} | ${cpu(figures.scanCpu)} | | |`,
    ...peerRows,
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
