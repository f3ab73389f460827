import type { Server } from 'node:net';

/** A port another process holds: the operator frees it or sets the variable to another one. */
export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly variable: string,
  ) {
    super(`port ${port} is in use by another process: stop that one, or set ${variable} to a free port`);
    this.name = 'PortInUseError';
  }
}

/**
 * `server.listen(port, host)` as a promise; a port in use rejects with a PortInUseError naming
 * `variable`, the setting that chose the port, and the server is left closed.
 */
export function listenOn(server: Server, { port, host, variable }: { port: number; host: string; variable: string }) {
  return new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(port, variable) : error);
    };
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}
