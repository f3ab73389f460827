import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServiceProcess {
  name: string;
  pid: number;
  /** Its health and metrics endpoints: the gateway's own port, or the ingestor's and projector's METRICS_PORT. */
  url: string;
  /** Resolves with the exit code (or signal) once it has exited, whoever stopped it. */
  readonly exited: Promise<number | string>;
  /** SIGTERM; resolves once it has exited. SIGKILL if it overruns `graceMs`. */
  terminate(graceMs?: number): Promise<number | string>;
}

/**
 * One of the product's processes (`entry` relative to the repository), its log lines written to
 * this process's stdout behind its name, as `docker compose up` shows them. It runs in its own
 * process group: a Ctrl+C in the terminal reaches only the supervisor, which stops the services
 * in order; should the supervisor die, its exit hook still kills them.
 */
export function startService(options: {
  name: string;
  entry: string;
  url: string;
  env: Record<string, string>;
}): ServiceProcess {
  const { name, entry, url, env } = options;
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  if (child.pid === undefined) throw new Error(`${name} could not be spawned`);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => {
      process.off('exit', killOnExit);
      resolve(code ?? signal ?? 'unknown');
    }),
  );
  prefixLines(child, name);
  return {
    name,
    pid: child.pid,
    url,
    exited,
    async terminate(graceMs = 15_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

function prefixLines(child: ChildProcess, name: string): void {
  const label = `${name.padEnd(10)}| `;
  for (const stream of [child.stdout!, child.stderr!]) {
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) process.stdout.write(`${label}${line}\n`);
    });
    stream.on('end', () => {
      if (pending) process.stdout.write(`${label}${pending}\n`);
    });
  }
}

/** Polls `<url>/readyz` until it answers 200; fails if the process exits or `timeoutMs` passes first. */
export async function waitUntilReady(service: ServiceProcess, timeoutMs: number): Promise<void> {
  let exitedWith: number | string | undefined;
  void service.exited.then((code) => {
    exitedWith = code;
  });
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (exitedWith !== undefined) throw new Error(`${service.name} exited (${exitedWith}) before it was ready`);
    try {
      const answer = await fetch(`${service.url}/readyz`, { signal: AbortSignal.timeout(3_000) });
      if (answer.ok) return;
      last = `${answer.status} ${await answer.text()}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${service.name} was not ready within ${timeoutMs / 1000} s (last answer: ${last})`);
}
