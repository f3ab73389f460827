import { type Server, createServer } from 'node:net';

/** A loopback port nothing listens on right now, kept for this test worker; bind it soon. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  if (port === undefined) throw new Error('could not pick a free port');
  return port;
}

/*
 * Ports are picked below the kernel's ephemeral range (32768 and up on Linux), each vitest worker
 * in a slice of its own. A port the OS handed out (listen on 0) is free again the moment it is
 * closed, so another worker's server, or any outgoing connection, could take it before the process
 * it was picked for binds it; the test then talks to a stranger (a 404 from another gateway's
 * operations port). Nothing else hands out ports from a worker's slice; vitest's own process
 * (global setups) has slice 0. Outside vitest, the process id picks the slice. Two vitest processes
 * side by side (scripts/vitest-report.sh runs the browser tests beside the rest) keep apart by
 * TEST_PORT_SLICE_OFFSET.
 */
const FIRST_PORT = 20_000;
const SLICE = 500;
const SLICES = 24;
const pool = process.env.VITEST_POOL_ID ?? (process.env.VITEST ? '0' : undefined);
const slice = (Number(pool ?? process.pid) + Number(process.env.TEST_PORT_SLICE_OFFSET ?? 0)) % SLICES;
// Files that one worker runs one after another each start counting afresh: start where the last
// one is unlikely to have been, and skip what is still bound.
let cursor = process.pid % SLICE;

function nextCandidate(): number {
  cursor = (cursor + 1) % SLICE;
  return FIRST_PORT + slice * SLICE + cursor;
}

function bind(port: number): Promise<Server | undefined> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** `count` distinct free loopback ports from this worker's slice, each tried by binding it. */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let tries = 0; servers.length < count; tries++) {
      if (tries === SLICE) throw new Error(`no free port left in ${FIRST_PORT + slice * SLICE}+${SLICE}`);
      const server = await bind(nextCandidate());
      if (server) servers.push(server);
    }
    return servers.map((server) => (server.address() as { port: number }).port);
  } finally {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }
}
