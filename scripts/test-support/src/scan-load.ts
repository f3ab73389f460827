import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { scanner } from './scanners';

/** One scan request and how the gateway answered it. Times are `performance.now()` of this process. */
export interface ScanAnswer {
  fundraiserId: string;
  /** The HTTP status; 0 when no answer came (the connection failed). */
  status: number;
  /** Set on 202. */
  scanId?: string;
  /** The `error` of a JSON error answer, or the connection's error. */
  error?: string;
  sentAt: number;
  answeredAt: number;
}

export interface ScanLoadOptions {
  /** The gateway's base URL. */
  url: string;
  /** Scans go to these in turn. */
  fundraiserIds: readonly string[];
  /** Requests in flight at most. */
  concurrency: number;
  /** Requests sent at most: the load ends by itself after that many. */
  total: number;
  /** Requests started per second at most; unpaced when omitted. */
  ratePerSecond?: number;
}

export interface ScanLoad {
  /** Every answer so far, in the order they arrived. */
  readonly answers: readonly ScanAnswer[];
  /** Resolves once `total` requests were answered, or after stop(). */
  readonly done: Promise<void>;
  /** Sends no more requests; resolves once those in flight are answered. */
  stop(): Promise<void>;
}

const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Scanners hitting `POST /api/fundraisers/{id}/scan`, `concurrency` at a time over keep-alive
 * connections, recording every answer so a test can hold the gateway to each 202 it gave. Each
 * request is a person of its own (`scanner(n)`): one address may send 600 scans a minute.
 */
export function startScanLoad(options: ScanLoadOptions): ScanLoad {
  const { url, fundraiserIds, concurrency, total, ratePerSecond } = options;
  // A connection the gateway closes for idleness (after 5 s) while a request is sent on it fails
  // that request without the gateway ever reading it. Taking connections in turn keeps them all
  // busy, and `timeout` lets the agent honour the server's Keep-Alive hint and retire them first.
  const agent = new Agent({
    keepAlive: true,
    maxSockets: concurrency,
    scheduling: 'fifo',
    timeout: REQUEST_TIMEOUT_MS,
  });
  const { hostname, port } = new URL(url);
  const answers: ScanAnswer[] = [];
  const startedAt = performance.now();
  let issued = 0;
  let stopped = false;

  async function scan(): Promise<void> {
    while (!stopped && issued < total) {
      const index = issued++;
      if (ratePerSecond !== undefined) {
        const wait = startedAt + (index * 1000) / ratePerSecond - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        if (stopped) return;
      }
      const fundraiserId = fundraiserIds[index % fundraiserIds.length]!;
      const sentAt = performance.now();
      const answer = await postScan(agent, hostname, Number(port), fundraiserId, scanner(index));
      answers.push({ fundraiserId, ...answer, sentAt, answeredAt: performance.now() });
    }
  }

  const done = Promise.all(Array.from({ length: concurrency }, scan)).then(() => agent.destroy());
  return {
    answers,
    done,
    async stop() {
      stopped = true;
      await done;
    },
  };
}

function postScan(
  agent: Agent,
  hostname: string,
  port: number,
  fundraiserId: string,
  headers: Record<string, string>,
): Promise<Pick<ScanAnswer, 'status' | 'scanId' | 'error'>> {
  return new Promise((settle) => {
    // A deadline of its own, not the socket's idle timeout: the agent shortens that to the
    // gateway's Keep-Alive hint less a second (4 s) on reused sockets, which cut slow answers short.
    const timer = setTimeout(
      () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)),
      REQUEST_TIMEOUT_MS,
    );
    const resolve = (answer: Pick<ScanAnswer, 'status' | 'scanId' | 'error'>) => {
      clearTimeout(timer);
      settle(answer);
    };
    const req = request(
      {
        agent,
        hostname,
        port,
        method: 'POST',
        path: `/api/fundraisers/${fundraiserId}/scan`,
        headers,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          let parsed: { scanId?: unknown; error?: unknown } = {};
          try {
            parsed = JSON.parse(body) as typeof parsed;
          } catch {
            resolve({ status, error: `not JSON: ${body.slice(0, 200)}` });
            return;
          }
          if (status === 202 && typeof parsed.scanId === 'string') resolve({ status, scanId: parsed.scanId });
          else resolve({ status, error: typeof parsed.error === 'string' ? parsed.error : body.slice(0, 200) });
        });
        res.on('error', (error) => resolve({ status: 0, error: error.message }));
      },
    );
    req.on('error', (error) => resolve({ status: 0, error: error.message }));
    req.end();
  });
}

/** How many answers had each status, e.g. `{ 202: 29990, 503: 10 }`. */
export function countByStatus(answers: readonly ScanAnswer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** Each distinct error of the non-202 answers with how often it came, for failure output. */
export function countErrors(answers: readonly ScanAnswer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status, error } of answers) {
    if (status === 202) continue;
    const key = `${status} ${error ?? ''}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
