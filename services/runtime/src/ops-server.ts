import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';
import { listenOn } from './listen';
import { type Readiness, readinessAnswer } from './readiness';

export interface OpsServer {
  /** `http://<host>:<port>` as bound (the port chosen by the OS when 0 was asked). */
  url: string;
  close(): Promise<void>;
}

/**
 * A process's operations endpoints, on a port of their own (OPS_PORT, OPS_HOST: see
 * `opsServerEnv`): GET /healthz (the process is up), GET /readyz (its dependencies answer), GET
 * /metrics. The gateway's public port answers /healthz only.
 */
export async function startOpsServer(options: {
  host: string;
  port: number;
  readiness: Readiness;
  registry: Registry;
}): Promise<OpsServer> {
  const { host, port, readiness, registry } = options;
  const server = createServer((req, res) => {
    const send = (status: number, contentType: string, body: string) => {
      res.writeHead(status, { 'content-type': contentType });
      res.end(body);
    };
    const path = (req.url ?? '/').split('?')[0];
    const answer = async () => {
      if (req.method !== 'GET')
        return send(405, 'application/json', JSON.stringify({ error: 'Only GET is served here' }));
      if (path === '/healthz') return send(200, 'application/json', JSON.stringify({ status: 'ok' }));
      if (path === '/readyz') {
        const { status, body } = readinessAnswer(await readiness.check());
        return send(status, 'application/json', JSON.stringify(body));
      }
      if (path === '/metrics') return send(200, registry.contentType, await registry.metrics());
      return send(404, 'application/json', JSON.stringify({ error: `No such endpoint: ${req.method} ${path}` }));
    };
    answer().catch((error: unknown) => {
      send(500, 'application/json', JSON.stringify({ error: `Could not answer: ${(error as Error).message}` }));
    });
  });
  await listenOn(server, { port, host, variable: 'OPS_PORT' });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${bound}`,
    close: () => closeServer(server, 1_000),
  };
}

/**
 * Stops accepting connections, lets requests in flight finish for up to `graceMs`, then drops
 * the connections still open (a stream would otherwise hold the process). Requests that still
 * arrive on kept-alive connections are answered with `Connection: close`, so their clients move
 * to another instance instead of keeping this one busy until the grace period ends.
 */
export async function closeServer(server: Server, graceMs: number): Promise<void> {
  if (!server.listening) return;
  server.prependListener('request', (_req, res) => res.setHeader('connection', 'close'));
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // A connection whose request was in flight when closing began turns idle once answered.
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  const timer = setTimeout(() => server.closeAllConnections(), graceMs);
  await closed;
  clearInterval(sweep);
  clearTimeout(timer);
}
