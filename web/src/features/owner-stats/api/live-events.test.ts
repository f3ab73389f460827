import { describe, expect, it } from 'vitest';
import { readServerSentEvents, type ServerSentEvent } from './live-events';

/** A body arriving in exactly these pieces, as a network delivers it. */
function bodyOf(chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
}

async function readAll(chunks: (string | Uint8Array)[]): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of readServerSentEvents(bodyOf(chunks))) events.push(event);
  return events;
}

describe('reading a server-sent event stream', () => {
  it('gives each stats event with its JSON, skipping the heartbeat comments', async () => {
    const events = await readAll([
      'event: stats\ndata: {"scans":1}\n\n',
      ': heartbeat\n\n',
      'event: stats\ndata: {"scans":2}\n\n',
    ]);
    expect(events).toEqual([
      { event: 'stats', data: '{"scans":1}' },
      { event: 'stats', data: '{"scans":2}' },
    ]);
  });

  it('puts together events split anywhere across chunks, CRLF split between its CR and LF included', async () => {
    const text = 'event: stats\r\ndata: {"amountRaised":12.5}\r\n\r\nevent: stats\rdata: {"scans":3}\r\r';
    const bytes = new TextEncoder().encode(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      const events = await readAll([bytes.slice(0, cut), bytes.slice(cut)]);
      expect(events, `cut at ${cut}`).toEqual([
        { event: 'stats', data: '{"amountRaised":12.5}' },
        { event: 'stats', data: '{"scans":3}' },
      ]);
    }
  });

  it('decodes a character whose bytes arrive in two chunks', async () => {
    const bytes = new TextEncoder().encode('data: {"name":"Café"}\n\n');
    const split = bytes.indexOf(0xc3) + 1;
    expect(await readAll([bytes.slice(0, split), bytes.slice(split)])).toEqual([
      { event: 'message', data: '{"name":"Café"}' },
    ]);
  });

  it('joins data lines, drops events without data and the unfinished one the stream ends on', async () => {
    const events = await readAll([
      'event: stats\ndata: {"a":\ndata:1}\n\n',
      'event: empty\n\n',
      'id: 7\nretry: 10\n\n',
      'event: stats\ndata: {"cut":',
    ]);
    expect(events).toEqual([{ event: 'stats', data: '{"a":\n1}' }]);
  });
});
