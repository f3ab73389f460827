import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@qrshirt/test-support';
import { createHttpServer } from '../src/http/create-http-server';
import { createEventStreams, type EventStreams } from '../src/http/event-streams';
import { openLiveStream } from './support/live-stream';

const servers: { close(): void; closeAllConnections(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** An app whose one route opens a stream, sends one event and records when the stream ends. */
async function serve(streams: EventStreams) {
  const closed: string[] = [];
  const app = express().get('/stream/:name', (req, res) => {
    const stream = streams.open(res, req.params.name);
    stream.onClose(() => closed.push(req.params.name));
    stream.send('stats', JSON.stringify({ hello: req.params.name }));
  });
  const server = createHttpServer(app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, closed };
}

const until = (condition: () => boolean, what: string) => waitFor(what, condition, Boolean, { intervalMs: 5 });

describe('server-sent event streams', () => {
  it('send events and heartbeat comments while nothing happens', async () => {
    const { url } = await serve(createEventStreams({ heartbeatMs: 30 }));
    const stream = await openLiveStream(url, '/stream/a');
    expect(await stream.next(() => true)).toEqual({ hello: 'a' });
    await until(() => stream.comments.length >= 2, 'two heartbeats arrived');
    expect(stream.comments[0]).toBe(': heartbeat');
    stream.close();
  });

  it('clean up when the client goes away', async () => {
    const { url, closed } = await serve(createEventStreams());
    const stream = await openLiveStream(url, '/stream/b');
    await stream.next(() => true);
    expect(closed).toEqual([]);
    stream.close();
    await until(() => closed.length === 1, 'the server saw the client leave');
    expect(closed).toEqual(['b']);
  });

  it('all end at once on shutdown', async () => {
    const streams = createEventStreams();
    const { url, closed } = await serve(streams);
    const clients = await Promise.all(['c', 'd'].map((name) => openLiveStream(url, `/stream/${name}`)));
    await Promise.all(clients.map((client) => client.next(() => true)));
    streams.closeAll();
    expect(closed.sort()).toEqual(['c', 'd']);
  });
});
