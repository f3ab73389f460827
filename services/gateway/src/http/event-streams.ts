import type { Response } from 'express';
import { HttpError } from './http-error';

export interface EventStream {
  /** Sends one server-sent event; `data` is JSON text. Does nothing once closed. */
  send(event: string, data: string): void;
  /** Runs when the stream ends, whoever ends it (the client leaving, or shutdown). */
  onClose(cleanup: () => void): void;
  close(): void;
  readonly closed: boolean;
}

export interface EventStreams {
  /**
   * Answers the request with a text/event-stream that stays open, one of `account`'s; refuses
   * (429, before answering anything) when the account has its allowance of streams open.
   */
  open(res: Response, account: string): EventStream;
  /** Ends every open stream (shutdown: the server cannot close while streams hold connections). */
  closeAll(): void;
}

/** Streams one account may hold open at once in a gateway: a few tabs and devices. */
const STREAMS_PER_ACCOUNT = 5;

/**
 * Server-sent event streams with a heartbeat comment (every 15 s by default), so proxies and
 * clients can tell an idle stream from a dead connection and do not time it out. Each holds a
 * connection, a timer and subscriptions for as long as its client wants: an account may have
 * `perAccount` open in this process (a stream lives in one), and a client that leaves frees its
 * place at once.
 */
export function createEventStreams(options: { heartbeatMs?: number; perAccount?: number } = {}): EventStreams {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const perAccount = options.perAccount ?? STREAMS_PER_ACCOUNT;
  const open = new Set<EventStream>();
  const openBy = new Map<string, number>();

  return {
    open(res, account) {
      const held = openBy.get(account) ?? 0;
      if (held >= perAccount) {
        throw new HttpError(
          429,
          `You have ${perAccount} live updates open already (in other tabs or on other devices): close one to open another`,
        );
      }
      openBy.set(account, held + 1);
      res.status(200).set({
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache, no-transform',
        Connection: 'keep-alive',
        // nginx and similar proxies would otherwise buffer the stream.
        'X-Accel-Buffering': 'no',
      });
      res.flushHeaders();
      const cleanups: (() => void)[] = [];
      const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), heartbeatMs);
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        open.delete(stream);
        const left = (openBy.get(account) ?? 1) - 1;
        if (left === 0) openBy.delete(account);
        else openBy.set(account, left);
        for (const cleanup of cleanups) cleanup();
        if (!res.writableEnded) res.end();
      };
      const stream: EventStream = {
        send(event, data) {
          if (!closed) res.write(`event: ${event}\ndata: ${data}\n\n`);
        },
        onClose: (cleanup) => void cleanups.push(cleanup),
        close,
        get closed() {
          return closed;
        },
      };
      // 'close' also fires when the client goes away mid-stream.
      res.on('close', close);
      open.add(stream);
      return stream;
    },
    closeAll() {
      for (const stream of [...open]) stream.close();
    },
  };
}
