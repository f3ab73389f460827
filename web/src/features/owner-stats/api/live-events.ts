/** One server-sent event: its `event:` name ('message' when none) and its `data:` lines joined. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * Reads a text/event-stream body as the HTML standard parses one: lines end in CRLF, LF or CR
 * (a chunk may end between CR and LF), `:` lines are comments (the server's heartbeat), a blank
 * line dispatches the event, an event without data is dropped. `id` and `retry` are not used here.
 */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  // Streaming mode: a character split across two chunks is decoded once both arrived.
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];

  function* lines(final: boolean): Generator<string> {
    for (;;) {
      const end = buffer.search(/[\r\n]/);
      if (end === -1) break;
      // A CR as the last character may be the first half of a CRLF still on its way.
      if (buffer[end] === '\r' && end === buffer.length - 1 && !final) break;
      const line = buffer.slice(0, end);
      buffer = buffer.slice(buffer[end] === '\r' && buffer[end + 1] === '\n' ? end + 2 : end + 1);
      yield line;
    }
  }

  function take(line: string): ServerSentEvent | null {
    if (line === '') {
      const dispatched = data.length > 0 ? { event: event || 'message', data: data.join('\n') } : null;
      event = '';
      data = [];
      return dispatched;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    return null;
  }

  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      for (const line of lines(done)) {
        const dispatched = take(line);
        if (dispatched) yield dispatched;
      }
      // An event not ended by a blank line when the stream closes is incomplete: dropped.
      if (done) return;
    }
  } finally {
    // The reader stopped early (left the page) or the body failed: let go of the connection either way.
    await reader.cancel().catch(() => undefined);
  }
}
