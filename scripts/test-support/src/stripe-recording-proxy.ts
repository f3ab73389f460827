import { type IncomingMessage, type Server, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the gateway made to "Stripe". */
export interface StripeRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  form: URLSearchParams;
}

/** An answer of Stripe's API: its status and its JSON body. */
export interface StripeAnswer {
  status: number;
  body: unknown;
}

interface RecordingProxy {
  url: string;
  seen: StripeRequest[];
  /** While set, every request gets this answer instead of stripe-mock's, whose fixtures never refuse. */
  answer: StripeAnswer | null;
  close(): Promise<void>;
}

/**
 * stripe-mock answers fixtures, not what it was sent: the gateway talks to it through this proxy,
 * which forwards everything to `target` and keeps each request's method, path, form body and
 * Idempotency-Key. stripe-mock takes test keys only: a live key is passed on as a test one.
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const seen: StripeRequest[] = [];
  const upstream = new URL(target);
  const proxy = { answer: null } as RecordingProxy;
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const key = req.headers['idempotency-key'];
      seen.push({
        method: req.method ?? '',
        path: req.url ?? '',
        idempotencyKey: Array.isArray(key) ? key[0] : key,
        form: new URLSearchParams(body.toString('utf8')),
      });
      if (proxy.answer) {
        res.writeHead(proxy.answer.status, { 'Content-Type': 'application/json', 'Request-Id': 'req_refused' });
        res.end(JSON.stringify(proxy.answer.body));
        return;
      }
      const headers = { ...req.headers, authorization: req.headers.authorization?.replace('_live_', '_test_') };
      const forwarded = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forwarded.on('error', () => res.destroy());
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
