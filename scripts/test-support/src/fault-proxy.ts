import { type Server, type Socket, connect, createServer } from 'node:net';
import { performance } from 'node:perf_hooks';

/**
 * What a bad network does to a TCP connection, as the two programs at its ends see it. TCP hides
 * a lost packet: it arrives late, once its sender's retransmission timer fires, and everything
 * sent after it waits behind it. So "loss" here holds a chunk back by one retransmission timeout,
 * and each retransmission is lost again with the link's loss as it is then, after twice the
 * previous timeout (TCP's exponential backoff): once the faults end, a held chunk arrives at its
 * next retransmission. The byte order is kept; no byte is ever dropped or reordered, which TCP
 * would never let through either.
 */
export interface LinkFaults {
  /** Added to every chunk, in each direction (one-way delay). */
  delayMs: number;
  /** The chance that a chunk is lost and must wait for its retransmission(s), 0 to 1. */
  loss: number;
  /**
   * The chance, per chunk, that the connection is reset instead (both ends get ECONNRESET), as
   * when a peer or a middlebox gives up on it; 0 to 1.
   */
  resetShare: number;
}

export interface FaultProxy {
  /** `host:port` to connect to instead of the target. */
  readonly address: string;
  /** Faults from now on for every connection, open or new; `undefined` ends them. */
  setFaults(faults: LinkFaults | undefined): void;
  /** Chunks forwarded, chunks held back as lost, connections reset, since the start. */
  readonly stats: { chunks: number; lost: number; resets: number };
  /** Stops listening and destroys every connection. */
  close(): Promise<void>;
}

/**
 * Linux's floor for TCP's retransmission timeout is 200 ms; above that it follows the round trip,
 * so the first timeout is taken as the larger of 200 ms and one and a half round trips.
 */
const MIN_RTO_MS = 200;
/** Linux's ceiling for it (TCP_RTO_MAX). */
const MAX_RTO_MS = 120_000;

/** A chunk on its way: when it arrives, or when its retransmission is due while it is lost. */
interface InFlight {
  chunk: Buffer | undefined;
  at: number;
  lost: boolean;
  rtoMs: number;
}

/**
 * A TCP relay from `listen` to `target` that can delay, stall and reset what passes, for tests
 * that need a bad network where the kernel's `tc netem` is missing. It listens on `listen.host`
 * (and `listen.port`, or a free one) and opens one connection to `target` per connection it takes.
 */
export async function startFaultProxy(options: {
  listen: { host: string; port?: number };
  target: { host: string; port: number };
  random?: () => number;
}): Promise<FaultProxy> {
  const { listen, target, random = Math.random } = options;
  let faults: LinkFaults | undefined;
  const stats = { chunks: 0, lost: 0, resets: 0 };
  const open = new Set<Socket>();

  /** Whether one try at sending a chunk is lost, with the faults as they are at that moment. */
  const lostNow = () => faults !== undefined && random() < faults.loss;

  /** Forwards `from`'s bytes to `to` in order, each chunk when the faults say it arrives. */
  const relay = (from: Socket, to: Socket, reset: () => void) => {
    const queue: InFlight[] = [];
    let timer: NodeJS.Timeout | undefined;
    const flush = () => {
      timer = undefined;
      while (queue.length > 0 && queue[0]!.at <= performance.now()) {
        const head = queue[0]!;
        if (head.lost) {
          head.lost = lostNow();
          head.rtoMs = Math.min(2 * head.rtoMs, MAX_RTO_MS);
          head.at = performance.now() + (head.lost ? head.rtoMs : (faults?.delayMs ?? 0));
          continue;
        }
        queue.shift();
        if (to.destroyed) return;
        if (head.chunk) to.write(head.chunk);
        else to.end();
      }
      if (queue.length > 0) timer = setTimeout(flush, Math.max(0, queue[0]!.at - performance.now()));
    };
    const enqueue = (chunk: Buffer | undefined) => {
      const delayMs = faults?.delayMs ?? 0;
      const rtoMs = Math.max(MIN_RTO_MS, 3 * delayMs);
      const lost = lostNow();
      if (lost) stats.lost += 1;
      queue.push({ chunk, lost, rtoMs, at: performance.now() + (lost ? rtoMs : delayMs) });
      if (timer === undefined) flush();
    };
    from.on('data', (chunk: Buffer) => {
      stats.chunks += 1;
      if (faults && random() < faults.resetShare) {
        stats.resets += 1;
        reset();
        return;
      }
      enqueue(chunk);
    });
    from.on('end', () => enqueue(undefined));
    from.on('close', () => {
      if (timer !== undefined) clearTimeout(timer);
    });
  };

  const server: Server = createServer({ allowHalfOpen: true }, (client) => {
    const upstream = connect({ host: target.host, port: target.port, allowHalfOpen: true });
    open.add(client);
    open.add(upstream);
    const reset = () => {
      abort(client);
      abort(upstream);
    };
    for (const [socket, other] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      socket.setNoDelay(true);
      // An end that fails (refused, reset, timed out) fails the other end the same way.
      socket.on('error', () => abort(other));
      socket.on('close', () => {
        open.delete(socket);
        if (!other.destroyed && socket.readableEnded === false) other.destroy();
      });
    }
    relay(client, upstream, reset);
    relay(upstream, client, reset);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port ?? 0, listen.host, () => resolve());
  });
  const bound = server.address();
  if (bound === null || typeof bound === 'string') throw new Error('the fault proxy has no port');

  return {
    address: `${listen.host}:${bound.port}`,
    setFaults(next) {
      faults = next;
    },
    stats,
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Closes `socket` with a TCP reset, as a peer that gave up on it would. */
function abort(socket: Socket): void {
  if (!socket.destroyed) socket.resetAndDestroy();
}
