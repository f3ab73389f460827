import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const mainFile = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

export interface ProjectorProcess {
  /** Where its GET /healthz, /readyz and /metrics answer. */
  opsUrl: string;
  /** Its log lines so far, parsed. */
  logs: { msg: string; [field: string]: unknown }[];
  /** SIGTERM; resolves with the exit code and how long it took to exit. */
  terminate(): Promise<{ code: number | null; ms: number }>;
  kill(): Promise<void>;
}

/** `npm run start:projector` as its own OS process; resolves once it logged 'projector running'. */
export async function startProjectorProcess(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<ProjectorProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', mainFile], {
    env: { ...process.env, METRICS_PORT: '0', METRICS_HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const logs: ProjectorProcess['logs'] = [];
  let stderr = '';
  let pending = '';
  let opsUrl = '';
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      process.off('exit', killOnExit);
      resolve(code);
    }),
  );
  const running = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const entry = JSON.parse(line) as ProjectorProcess['logs'][number];
        logs.push(entry);
        if (entry.msg === 'projector running') {
          opsUrl = String(entry.ops);
          resolve();
        }
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    void exited.then((code) => reject(new Error(`the projector exited (${code}) before running: ${stderr}`)));
    setTimeout(
      () => reject(new Error(`the projector was not running after ${timeoutMs} ms: ${stderr}`)),
      timeoutMs,
    ).unref();
  });
  try {
    await running;
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    opsUrl,
    logs,
    async terminate() {
      const startedAt = Date.now();
      child.kill('SIGTERM');
      const code = await exited;
      return { code, ms: Date.now() - startedAt };
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
