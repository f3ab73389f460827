import { type Server, createServer } from 'node:net';

/** A loopback port nothing listens on right now; the caller should bind it soon. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  if (port === undefined) throw new Error('could not pick a free port');
  return port;
}

/**
 * `count` distinct free loopback ports. They are held open together while picked, so the OS
 * cannot hand out the same port twice.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', resolve);
      });
    }
    return servers.map((server) => {
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error('could not pick a free port');
      return address.port;
    });
  } finally {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }
}
