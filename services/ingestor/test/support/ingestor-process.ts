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
  /** Every log line so far, oldest first. */
  readonly logs: readonly IngestorLogLine[];
  readonly exited: boolean;
  /** SIGKILL (works on a paused process too); resolves once it is gone. No-op if it already is. */
  kill(): Promise<void>;
  /** SIGSTOP: the process stays in the group's books but neither heartbeats nor writes. */
  pause(): void;
  /** SIGCONT. */
  resume(): void;
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
    env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'info', ...env },
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
    if (parsed.msg === READY_MESSAGE) ready();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  let exited = false;
  const exit = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = true;
      process.off('exit', killOnExit);
      resolve(`exited with ${signal ?? code}`);
    }),
  );

  const handle: IngestorProcess = {
    pid,
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
  };

  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`was not running after ${timeoutMs} ms`), timeoutMs);
  });
  const failure = await Promise.race([isReady.then(() => undefined), exit, timedOut]);
  clearTimeout(timer);
  if (failure !== undefined) {
    await handle.kill();
    const tail = logs.slice(-10).map((line) => JSON.stringify(line)).join('\n');
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
