import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const STOP_TIMEOUT_MS = 5_000;

/** A server the tests start for themselves, in a scratch folder that goes with it. */
export interface ScratchServer {
  child: ChildProcess;
  /** The end of what it printed, for a failure's message. */
  logTail: () => string;
  /** SIGTERM, SIGKILL after 5 s, then its folder removed; once, however often it is called. */
  stop: () => Promise<void>;
}

/**
 * Runs `argv(dir)` (the command, then its arguments, which may name the folder) with its output in
 * a log file of a new scratch folder `dir`. It is killed when this process exits, in case stop()
 * is never reached.
 */
export async function spawnScratchServer(name: string, argv: (dir: string) => string[]): Promise<ScratchServer> {
  const dir = await mkdtemp(join(tmpdir(), `qr-${name}-`));
  const logPath = join(dir, `${name}.log`);
  const log = openSync(logPath, 'w');
  const [command, ...args] = argv(dir);
  const child = spawn(command!, args, { stdio: ['ignore', log, log] });
  closeSync(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  // The exit hook owns the cleanup, so a forgotten stop() does not keep the process alive.
  child.unref();

  let stopping: Promise<void> | undefined;
  return {
    child,
    logTail: () => {
      try {
        return readFileSync(logPath, 'utf8').slice(-2_000);
      } catch {
        return '';
      }
    },
    stop: () => {
      stopping ??= (async () => {
        process.off('exit', killOnExit);
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
          await exited;
          clearTimeout(timer);
        }
        await rm(dir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
}
