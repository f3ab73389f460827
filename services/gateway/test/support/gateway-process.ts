import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const mainFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/main.ts');

export interface GatewayProcess {
  url: string;
  child: ChildProcess;
  /** SIGTERM, then wait for the exit code. */
  stop(): Promise<number | null>;
}

/** `npm start`'s entry point as a separate OS process; resolves once it says where it listens. */
export function startGatewayProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<GatewayProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', mainFile], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gateway did not start in ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${code} before listening: ${stderr}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let record: { url?: string };
      try {
        record = JSON.parse(line);
      } catch {
        return;
      }
      if (!record.url) return;
      clearTimeout(timer);
      resolve({
        url: record.url,
        child,
        async stop() {
          child.kill('SIGTERM');
          return exited;
        },
      });
    });
  });
}
