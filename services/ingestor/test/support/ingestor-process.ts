import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const mainFile = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

/** One JSON line of the ingestor's pino log. */
export interface IngestorLogLine {
  msg: string;
  [field: string]: unknown;
}

export interface IngestorProcess {
  readonly pid: number;
  /** Where its GET /healthz, /readyz and /metrics answer. */
  readonly opsUrl: string;
  /** Every log line so far, oldest first. */
  readonly logs: readonly IngestorLogLine[];
  readonly exited: boolean;
  /** SIGKILL (works on a paused process too); resolves once it is gone. No-op if it already is. */
  kill(): Promise<void>;
  /** SIGSTOP: the process stays in the group's books but neither heartbeats nor writes. */
  pause(): void;
  /** SIGCONT. */
  resume(): void;
  /** SIGTERM; resolves with the exit code once it is gone. */
  terminate(): Promise<number | null>;
}

const READY_MESSAGE = 'ingestor running';

/**
 * `npm run start:ingestor` as its own OS process; resolves once it has joined the consumer group
 * (its 'ingestor running' log line). That can take a whole session timeout when a killed member
 * is still in the group, since the coordinator waits for it before assigning partitions.
 */
export async function startIngestorProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<IngestorProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', mainFile], {
    // kafkajs shortens its retries under NODE_ENV=test (which vitest sets): run it as deployed.
    // METRICS_PORT 0: several ingestors of one test must not compete for the default port.
    env: {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      METRICS_PORT: '0',
      METRICS_HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error('the ingestor process could not be spawned');
  const pid = child.pid;
  // Should the test runner die first, no ingestor may outlive it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const logs: IngestorLogLine[] = [];
  let stderr = '';
  let ready: () => void = () => {};
  let opsUrl = '';
  const isReady = new Promise<void>((resolve) => {
    ready = resolve;
  });
  readLines(child, (line) => {
    let parsed: IngestorLogLine;
    try {
      parsed = JSON.parse(line) as IngestorLogLine;
    } catch {
      parsed = { msg: line };
    }
    logs.push(parsed);
    if (parsed.msg === READY_MESSAGE) {
      opsUrl = String(parsed.ops);
      ready();
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  let exited = false;
  let exitCode: number | null = null;
  const exit = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = true;
      exitCode = code;
      process.off('exit', killOnExit);
      resolve(`exited with ${signal ?? code}`);
    }),
  );

  const handle: IngestorProcess = {
    pid,
    get opsUrl() {
      return opsUrl;
    },
    logs,
    get exited() {
      return exited;
    },
    async kill() {
      if (exited) return;
      child.kill('SIGKILL');
      await exit;
    },
    pause: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
    async terminate() {
      if (!exited) child.kill('SIGTERM');
      await exit;
      return exitCode;
    },
  };

  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`was not running after ${timeoutMs} ms`), timeoutMs);
  });
  const failure = await Promise.race([isReady.then(() => undefined), exit, timedOut]);
  clearTimeout(timer);
  if (failure !== undefined) {
    await handle.kill();
    const tail = logs
      .slice(-10)
      .map((line) => JSON.stringify(line))
      .join('\n');
    throw new Error(`ingestor ${failure}\nstdout:\n${tail}\nstderr:\n${stderr}`);
  }
  return handle;
}

function readLines(child: ChildProcess, onLine: (line: string) => void): void {
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') onLine(line);
  });
}
