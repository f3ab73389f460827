/**
 * `npm start` runs this first (and `start:ingestor`, `start:projector` with `--server`,
 * `start:distributed` with `--web`): it builds the web client and the server bundles only when
 * what they were built from changed, so a start after an edit serves the edit and a plain restart
 * costs a few milliseconds. Plain JavaScript on purpose: the check compiles no TypeScript and
 * loads neither tsx, Vite nor esbuild; only a build does (web/scripts/build-if-stale.ts,
 * scripts/build-server.ts). It reports on stderr, a build's output included: it runs before the
 * command-line tools too, whose stdout is theirs (`npm run -s replay-donations > replay.csv`).
 *
 *   node scripts/build-if-stale.mjs [--web] [--server]   (neither: both)
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { webBuildIsCurrent } from '../web/scripts/build-fingerprint.mjs';
import { serverBundlesAreCurrent } from './server-build-stamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

/** @param {string} script relative to the repository's root */
function run(script) {
  const { status, error } = spawnSync(tsx, [script], { cwd: root, stdio: ['inherit', 2, 2] });
  if (error) throw error;
  // A failed build stops `npm start` (or the tool) before it runs stale files.
  if (status !== 0) process.exit(status ?? 1);
}

const asked = process.argv.slice(2);
const all = !asked.includes('--web') && !asked.includes('--server');
if (all || asked.includes('--web')) {
  if (webBuildIsCurrent()) console.error('web client: web/dist and web/dist-server are up to date');
  else run('web/scripts/build-if-stale.ts');
}
if (all || asked.includes('--server')) {
  if (serverBundlesAreCurrent()) console.error('server: the bundles are up to date');
  else run('scripts/build-server.ts');
}
