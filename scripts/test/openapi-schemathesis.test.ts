import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createApiClient,
  type GatewayProcess,
  infraRequired,
  launchProcess,
  scaled,
  signUp,
  startGatewayProcess,
} from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The served OpenAPI document must tell the truth: schemathesis generates requests from it (valid
 * and invalid ones, and methods it does not list) and checks every answer against it, as a signed-in
 * user. Any finding fails the run.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const installScript = path.join(root, 'scripts/infra/install-schemathesis.sh');
const schemathesis = path.join(root, '.venv-schemathesis/bin/schemathesis');
const configFile = fileURLToPath(new URL('./schemathesis.toml', import.meta.url));

/** Why schemathesis cannot run here, or undefined once it is installed (a no-op when it already is). */
function installSchemathesis(): string | undefined {
  const result = spawnSync('bash', [installScript], { encoding: 'utf8', timeout: scaled(300_000) });
  if (result.status === 0 && existsSync(schemathesis)) return undefined;
  const said = `${result.stderr ?? ''}${result.stdout ?? ''}`.trim().split('\n').slice(-3).join(' ');
  return `scripts/infra/install-schemathesis.sh failed (${result.error?.message ?? `exit code ${result.status}`}): ${said}`;
}

const missing = installSchemathesis();
const required = infraRequired('schemathesis');
if (missing && !required) console.warn(`[schemathesis] OpenAPI conformance skipped: ${missing}`);

/*
 * Bounded so that a whole run takes a few minutes at most on 2 shared cores: 81 operations times at
 * most 25 cases each in each phase (coverage, fuzzing, then stateful sequences): alone, 99 s and
 * 105 CPU-s with its gateway, against 141 s and 146 CPU-s at 50. It is the suite's longest file
 * and runs beside all the others: in a fresh-clone `.ci/run` at 50 it had 15 to 20 % of a core, and
 * its coverage and fuzzing phases alone took 697 s. One worker:
 * schemathesis' workers are threads, and CPython's ast.parse (3.11 here), which Hypothesis calls
 * while it builds strategies, is not thread-safe; a run with 2 workers once died of "SystemError:
 * AST constructor recursion depth mismatch" (CPython issue 106905), which fails the run like a
 * finding. Only a hung answer reaches the request timeout: a sign-up's scrypt hash under load
 * takes well under a second.
 */
const MAX_EXAMPLES = 25;
const WORKERS = 1;
const REQUEST_TIMEOUT_SECONDS = scaled(10_000) / 1000;
/** A hard stop for a run that hangs; far above the few minutes a run takes, even on a starved core. */
const RUN_TIMEOUT_MS = scaled(20 * 60_000);

interface Finished {
  code: number | null;
  output: string;
}

/** Runs it to its end; the launcher kills it should this test run end first, so no fuzzer hammers a port. */
async function runSchemathesis(args: string[], cwd: string): Promise<Finished> {
  const run = launchProcess({ name: 'schemathesis', command: [schemathesis, ...args], cwd, env: { NO_COLOR: '1' } });
  const timer = setTimeout(() => void run.kill(), RUN_TIMEOUT_MS);
  const status = await run.exited;
  clearTimeout(timer);
  const output = run.output.join('\n');
  if (typeof status === 'string') {
    return { code: null, output: `${output}\n[schemathesis killed by ${status} after ${RUN_TIMEOUT_MS} ms]` };
  }
  return { code: status, output };
}

/** Schemathesis' closing summary: the count of each kind of failure, and the seed. */
function summary(output: string): string {
  const start = output.search(/^=+ SUMMARY =+$/m);
  return start === -1 ? output : output.slice(start);
}

describe.skipIf(missing !== undefined && !required)('the served OpenAPI document (schemathesis --checks all)', () => {
  let dataDir: string;
  let workDir: string;
  let gateway: GatewayProcess | undefined;

  beforeAll(async () => {
    if (missing) throw new Error(`REQUIRE_INFRA names schemathesis, but ${missing}`);
    dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-schemathesis-data-'));
    workDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-schemathesis-'));
    gateway = await startGatewayProcess({
      DATA_DIR: dataDir,
      // Empty is unset; it also hides an ADMIN_EMAILS of the shell that runs the tests.
      ADMIN_EMAILS: '',
      // The run's one token must outlive the run on a slow machine, or late answers are all 401.
      ACCESS_TOKEN_TTL_SECONDS: '3600',
    });
  });

  afterAll(async () => {
    await gateway?.terminate();
    for (const dir of [dataDir, workDir]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(
    'finds nothing: every answer is documented, valid requests are accepted and invalid ones refused',
    async () => {
      const session = await signUp(createApiClient(gateway!.url));
      const args = [
        '--config-file',
        configFile,
        'run',
        `${gateway!.url}/api/openapi.json`,
        '--checks',
        'all',
        '--header',
        `Authorization: Bearer ${session.accessToken}`,
        '--max-examples',
        String(MAX_EXAMPLES),
        '--workers',
        String(WORKERS),
        '--request-timeout',
        String(REQUEST_TIMEOUT_SECONDS),
        // Every run starts from nothing, and writes nothing into the working tree.
        '--generation-database',
        'none',
        '--no-color',
        // The summary prints the seed of every run; SCHEMATHESIS_SEED replays a CI failure locally.
        ...(process.env.SCHEMATHESIS_SEED ? ['--seed', process.env.SCHEMATHESIS_SEED] : []),
      ];
      const { code, output } = await runSchemathesis(args, workDir);
      if (code !== 0) {
        const shown = args.map((arg) => (arg.startsWith('Authorization:') ? 'Authorization: Bearer <token>' : arg));
        console.error(`schemathesis ${shown.join(' ')} exited with ${code}:\n${output}`);
        const log = gateway!.output.filter(Boolean);
        if (log.length > 0) console.error(`the gateway's warnings and errors:\n${log.join('\n')}`);
      }
      // The failures themselves, each with a curl command that reproduces it, are in the output above.
      expect(code, summary(output)).toBe(0);
    },
    RUN_TIMEOUT_MS + scaled(60_000),
  );
});
