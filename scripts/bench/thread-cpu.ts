import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** CPU time a process has used so far, in µs: its main thread's, and its other threads' together. */
export interface ThreadCpu {
  main: number;
  others: number;
}

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/**
 * From Linux's /proc: how a server's CPU splits between the thread that runs its JavaScript and
 * the rest (a writer thread, the garbage collector's helpers, libuv's pool). Undefined where
 * there is no /proc. A thread that ends meanwhile takes its time with it.
 */
export function threadCpu(pid: number): ThreadCpu | undefined {
  try {
    const cpu: ThreadCpu = { main: 0, others: 0 };
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      // After the command, which may hold spaces: the state, then utime and stime as the 12th and 13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const micros = ((Number(fields[11]) + Number(fields[12])) * 1e6) / clockTicks();
      if (Number(task) === pid) cpu.main += micros;
      else cpu.others += micros;
    }
    return cpu;
  } catch {
    return undefined;
  }
}

/** The CPU per request between two readings, in µs; undefined without both. */
export function cpuPerRequest(
  before: ThreadCpu | undefined,
  after: ThreadCpu | undefined,
  requests: number,
): ThreadCpu | undefined {
  if (!before || !after || requests <= 0) return undefined;
  return { main: (after.main - before.main) / requests, others: (after.others - before.others) / requests };
}
