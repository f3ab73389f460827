import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  freePorts,
  killUnlessReady,
  launchProcess,
  scaled,
  TEST_ALTCHA_MAX_NUMBER,
  TEST_PASSWORD_SCRYPT_N,
  waitForUrl,
} from '@qrshirt/test-support';
import { E2E_ADMIN_EMAIL } from './admin';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

interface AppProcess {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * The product started the README's way (`npm start`, which builds the web client first) on a
 * free port with a fresh data folder. npm, its shell and node share a process group, so stopping
 * signals the group. `env` adds settings (a second app with another configuration, same build).
 */
export async function startApp({ env = {} }: { env?: Record<string, string> } = {}): Promise<AppProcess> {
  // Its operations port too: another test's process may hold the default one.
  const [port, opsPort] = await freePorts(2);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qrshirt-e2e-'));
  const app = launchProcess({
    name: 'npm start',
    command: ['npm', 'start'],
    cwd: repoRoot,
    // The admin area's tests sign up E2E_ADMIN_EMAIL, which makes that account an admin.
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      OPS_PORT: String(opsPort),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ADMIN_EMAILS: E2E_ADMIN_EMAIL,
      // The widget solves in the page, as it does for people: only cheaper.
      ALTCHA_MAX_NUMBER: TEST_ALTCHA_MAX_NUMBER,
      PASSWORD_SCRYPT_N: TEST_PASSWORD_SCRYPT_N,
      ...env,
    },
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await app.terminate();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // Still building or replaying the log until it answers.
    await killUnlessReady(app, waitForUrl(app, `${url}/healthz`, { timeoutMs: scaled(240_000), intervalMs: 200 }));
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  // What the build printed (the homepage budget line among it) goes into the test log.
  console.log(app.output.join('\n').trim());
  return { url, dataDir, stop };
}
