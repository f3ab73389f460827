import type { Response } from 'express';

export interface EventStream {
  /** Sends one server-sent event; `data` is JSON text. Does nothing once closed. */
  send(event: string, data: string): void;
  /** Runs when the stream ends, whoever ends it (the client leaving, or shutdown). */
  onClose(cleanup: () => void): void;
  close(): void;
  readonly closed: boolean;
}

export interface EventStreams {
  /** Answers the request with a text/event-stream that stays open. */
  open(res: Response): EventStream;
  /** Ends every open stream (shutdown: the server cannot close while streams hold connections). */
  closeAll(): void;
}

/**
 * Server-sent event streams with a heartbeat comment (every 15 s by default), so proxies and
 * clients can tell an idle stream from a dead connection and do not time it out.
 */
export function createEventStreams(options: { heartbeatMs?: number } = {}): EventStreams {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const open = new Set<EventStream>();

  return {
    open(res) {
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
