import { spawn } from 'node:child_process';
import { START_MS, scaled } from './deadlines';

export type OutputStream = 'stdout' | 'stderr';

/** How a process ended: its exit code, or the name of the signal that ended it. */
export type ExitStatus = number | NodeJS.Signals;

export type LaunchOptions = CommonOptions &
  (
    | {
        /** A TypeScript file, run as `node --import tsx <entry> ...args`, the way the npm scripts run them. */
        entry: string;
        args?: string[];
      }
    | {
        /** Another command, such as the README's `npm start`. */
        command: [string, ...string[]];
      }
  );

interface CommonOptions {
  /** Names it in errors. */
  name: string;
  /** Added to this process's environment. */
  env?: Record<string, string>;
  /** The network namespace to run it in (`ip netns exec`, which execs it: the pid stays its own). */
  netns?: string;
  cwd?: string;
  /**
   * Its own process group, and signals go to the whole group: a terminal's Ctrl+C then reaches only
   * the parent, which stops it in order; and a command that starts others (npm, its shell, node)
   * stops with them.
   */
  detached?: boolean;
  /** Each complete line it writes, as it comes. */
  onLine?: (line: string, stream: OutputStream) => void;
  /** What it writes, byte for byte, as it comes. */
  onText?: (text: string, stream: OutputStream) => void;
}

export interface LaunchedProcess {
  readonly name: string;
  readonly pid: number;
  /** Every line it wrote to stdout and stderr so far, in the order they arrived. */
  readonly output: string[];
  /** Resolves once it has exited and its output is read, whoever stopped it. */
  readonly exited: Promise<ExitStatus>;
  /** Whether it has exited. */
  readonly hasExited: boolean;
  /** SIGTERM, then SIGKILL if it is still there after `graceMs`; resolves once it has exited. */
  terminate(graceMs?: number): Promise<ExitStatus>;
  /** SIGKILL, which a paused process obeys too; resolves once it has exited. */
  kill(): Promise<void>;
  /** SIGSTOP: it keeps its sockets open but does nothing, as a hung host would. */
  pause(): void;
  /** SIGCONT. */
  resume(): void;
}

const DEFAULT_GRACE_MS = scaled(15_000);

/**
 * Starts `entry` as a separate OS process with its output piped into `output`. It is killed when
 * this process exits, so a failed test or an interrupted benchmark leaves no process behind to
 * hold ports, files or the cores the next run needs.
 */
export function launchProcess(options: LaunchOptions): LaunchedProcess {
  const [command, ...commandArgs] = inNetns(
    options.netns,
    'command' in options
      ? options.command
      : [process.execPath, '--import', 'tsx', options.entry, ...(options.args ?? [])],
  );
  const child = spawn(command, commandArgs, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  // A failed spawn also emits 'error', which would crash this process unheard; the throw below reports it.
  child.once('error', () => {});
  if (child.pid === undefined) throw new Error(`${options.name} could not be spawned`);
  const pid = child.pid;
  const signal = (name: NodeJS.Signals) => {
    if (hasExited) return;
    try {
      if (options.detached) process.kill(-pid, name);
      else child.kill(name);
    } catch {
      // It exited between the check and the signal.
    }
  };
  const killOnExit = () => signal('SIGKILL');
  process.once('exit', killOnExit);

  let hasExited = false;
  const exited = new Promise<ExitStatus>((resolve) =>
    // 'close', not 'exit': only then has all of its output been read.
    child.once('close', (code, signalName) => {
      hasExited = true;
      process.off('exit', killOnExit);
      resolve(code ?? signalName ?? 'SIGKILL');
    }),
  );

  const output: string[] = [];
  for (const [stream, name] of [
    [child.stdout, 'stdout'],
    [child.stderr, 'stderr'],
  ] as const) {
    let pending = '';
    const take = (line: string) => {
      output.push(line);
      options.onLine?.(line, name);
    };
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      options.onText?.(chunk, name);
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      lines.forEach(take);
    });
    stream.on('end', () => {
      if (pending) take(pending);
    });
  }

  return {
    name: options.name,
    pid,
    output,
    exited,
    get hasExited() {
      return hasExited;
    },
    async terminate(graceMs = DEFAULT_GRACE_MS) {
      signal('SIGTERM');
      // A paused process would only see the SIGTERM once resumed.
      signal('SIGCONT');
      const timer = setTimeout(() => signal('SIGKILL'), graceMs);
      const status = await exited;
      clearTimeout(timer);
      return status;
    },
    async kill() {
      signal('SIGKILL');
      await exited;
    },
    pause: () => signal('SIGSTOP'),
    resume: () => signal('SIGCONT'),
  };
}

/** `command` as run inside network namespace `netns` (`ip netns exec`); unchanged without one. */
export function inNetns(netns: string | undefined, command: [string, ...string[]]): [string, ...string[]] {
  return netns === undefined ? command : ['ip', 'netns', 'exec', netns, ...command];
}

/** The last lines it wrote, for an error message. */
export function outputTail(launched: LaunchedProcess, lines = 30): string {
  return launched.output.slice(-lines).join('\n');
}

/**
 * Polls `url` until it answers 2xx. Fails, with the process's last output, once the process exits
 * or `timeoutMs` passes.
 */
export async function waitForUrl(
  launched: LaunchedProcess,
  url: string,
  { timeoutMs = START_MS, intervalMs = 50 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  for (;;) {
    if (launched.hasExited) {
      throw new Error(
        `${launched.name} exited (${await launched.exited}) before ${url} answered:\n${outputTail(launched)}`,
      );
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${launched.name}: ${url} did not answer within ${timeoutMs / 1000} s (last: ${last}):\n${outputTail(launched)}`,
      );
    }
    try {
      const answer = await fetch(url, { signal: AbortSignal.timeout(3_000) });
      if (answer.ok) return;
      last = `${answer.status} ${await answer.text()}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Resolves with the first line of its output (written already or to come) that `matches`. Fails,
 * with its last output, once the process exits or `timeoutMs` passes.
 */
export async function waitForLine(
  launched: LaunchedProcess,
  matches: (line: string) => boolean,
  timeoutMs = START_MS,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = launched.output.find(matches);
    if (found !== undefined) return found;
    if (launched.hasExited) {
      throw new Error(
        `${launched.name} exited (${await launched.exited}) before it was running:\n${outputTail(launched)}`,
      );
    }
    if (Date.now() > deadline) {
      throw new Error(`${launched.name} was not running after ${timeoutMs / 1000} s:\n${outputTail(launched)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits with `ready`; a process that never got there is killed before the error is passed on. */
export async function killUnlessReady<T>(launched: LaunchedProcess, ready: Promise<T>): Promise<T> {
  try {
    return await ready;
  } catch (error) {
    await launched.kill();
    throw error;
  }
}

export interface Completed {
  status: ExitStatus;
  stdout: string;
  stderr: string;
}

/** Runs a command-line entry to its end, as a person would in a terminal, and keeps what it wrote. */
export async function runToEnd(options: LaunchOptions): Promise<Completed> {
  const written = { stdout: '', stderr: '' };
  const launched = launchProcess({
    ...options,
    onText: (text, stream) => {
      written[stream] += text;
    },
  });
  return { status: await launched.exited, ...written };
}
