import http from 'node:http';
import type { Socket } from 'node:net';
import type { Express, Request, Response } from 'express';

/**
 * How long an idle kept-alive connection stays open. Longer than the idle timeout of what reuses
 * them (nginx's upstream keepalive and cloud load balancers: 60 s; fetch's: at most the hint less
 * 2 s), so the client always closes first. With Node's 5 s, a loop busy for longer than that (a
 * page render, a GC, a busy machine) let the timer fire before the request that came meanwhile
 * was read, and that request got a reset: a 502 behind nginx, `fetch failed` in the tests.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

type Constructor<Args extends unknown[]> = (this: unknown, ...args: Args) => void;

/**
 * An HTTP server whose requests and responses are born with the app's Express prototypes.
 * Express otherwise swaps the prototype of every request and response (Object.setPrototypeOf),
 * which makes V8 drop the objects' optimised shapes: on our 2-core machines that costs about two
 * thirds of a trivial route's throughput. With the prototypes in place the swap is a no-op.
 * It also lets `frontDoor`, which sees each request first and may answer it without Express, use
 * what Express adds to them (`req.ip`, `res.json`).
 *
 * Node's IncomingMessage and ServerResponse are plain constructor functions, so they can be
 * called on `this` (Reflect.construct would work on classes too, but measured four times slower).
 */
export function createHttpServer(
  app: Express,
  frontDoor: (req: Request, res: Response) => boolean = () => false,
): http.Server {
  const initRequest = http.IncomingMessage as unknown as Constructor<[Socket]>;
  const initResponse = http.ServerResponse as unknown as Constructor<[http.IncomingMessage, unknown]>;
  function AppRequest(this: unknown, socket: Socket) {
    initRequest.call(this, socket);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: unknown, req: http.IncomingMessage, options: unknown) {
    initResponse.call(this, req, options);
  }
  AppResponse.prototype = app.response;
  return http.createServer(
    {
      // Typed as classes; Node calls them with `new`, which these constructor functions answer.
      IncomingMessage: AppRequest as unknown as typeof http.IncomingMessage,
      ServerResponse: AppResponse as unknown as typeof http.ServerResponse,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      headersTimeout: KEEP_ALIVE_TIMEOUT_MS + 1_000,
    },
    (req, res) => {
      // Born with the app's prototypes (above): they are Express's request and response.
      if (!frontDoor(req as Request, res as Response)) app(req, res);
    },
  );
}
