import { type RequestOptions, WAIT_MS } from '@qrshirt/test-support';

export interface LiveStream {
  status: number;
  headers: Headers;
  /** The JSON of every `stats` event received so far. */
  received: Record<string, unknown>[];
  /** Comment lines (heartbeats) received so far. */
  comments: string[];
  /** Resolves with the first `stats` event (already received or to come) that `matches`. */
  next(matches: (stats: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  close(): void;
}

/** Reads a server-sent event stream with fetch, as the web client does (headers, no token in the URL). */
export async function openLiveStream(baseUrl: string, path: string, options: RequestOptions = {}): Promise<LiveStream> {
  const controller = new AbortController();
  const answer = await fetch(baseUrl + path, {
    headers: { ...options.headers, ...(options.token && { authorization: `Bearer ${options.token}` }) },
    signal: controller.signal,
  });
  const received: Record<string, unknown>[] = [];
  const comments: string[] = [];
  const waiting = new Set<() => void>();
  if (answer.ok && answer.body) {
    const decoder = new TextDecoder();
    let buffer = '';
    void (async () => {
      try {
        for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const lines = block.split('\n');
            comments.push(...lines.filter((line) => line.startsWith(':')));
            const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
            const data = lines.find((line) => line.startsWith('data: '))?.slice(6);
            if (event === 'stats' && data !== undefined) received.push(JSON.parse(data));
            for (const wake of [...waiting]) wake();
          }
        }
      } catch {
        // Aborted by close().
      }
    })();
  }
  return {
    status: answer.status,
    headers: answer.headers,
    received,
    comments,
    next(matches) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = received.find(matches);
          if (found === undefined) return;
          waiting.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`no matching stats event within ${WAIT_MS} ms; received ${JSON.stringify(received)}`));
        }, WAIT_MS);
        waiting.add(check);
        check();
      });
    },
    close() {
      controller.abort();
    },
  };
}
