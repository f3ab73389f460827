/**
 * `npm start` runs this first: it builds the web client with Vite unless web/dist already holds
 * a build of exactly the current sources and VITE_* settings, so a start after an edit always
 * serves the edit and a plain restart costs nothing.
 *
 *   npx tsx web/scripts/build-if-stale.ts [--force]
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { SERVER_PAGES_ENTRY, serverPagesClientBuild } from '../vite.config';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distDir = path.join(webDir, 'dist');
/** The server-rendered pages' module, which the gateway imports to render them (issue 16). */
const serverEntry = path.join(webDir, 'dist-server', 'entry-server.js');
const fingerprintFile = path.join(distDir, '.build-fingerprint');

/** Everything the bundle is made from: the client, its build setup and the contracts it imports. */
const inputs = [
  'src',
  'public',
  'index.html',
  'vite.config.ts',
  'bundle-budget.ts',
  'precompress.ts',
  'package.json',
  'tsconfig.json',
  '../contracts/src',
  '../package-lock.json',
].map((entry) => path.join(webDir, entry));

/** Tests and their helpers are not part of the bundle: editing them does not call for a build. */
const notBundled = /(\.test\.tsx?$)|([/\\]src[/\\]testing[/\\])/;

function files(entry: string): string[] {
  if (!existsSync(entry) || notBundled.test(entry)) return [];
  if (!statSync(entry).isDirectory()) return [entry];
  return readdirSync(entry, { withFileTypes: true }).flatMap((child) => files(path.join(entry, child.name)));
}

function fingerprint(): string {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap(files).sort()) {
    const { mtimeMs, size } = statSync(file);
    hash.update(`${path.relative(webDir, file)}\0${mtimeMs}\0${size}\n`);
  }
  const settings = Object.entries(process.env)
    .filter(([name]) => name.startsWith('VITE_'))
    .sort();
  hash.update(JSON.stringify(settings));
  return hash.digest('hex');
}

const wanted = fingerprint();
const built = existsSync(fingerprintFile) ? readFileSync(fingerprintFile, 'utf8') : null;
const complete = existsSync(path.join(distDir, 'index.html')) && existsSync(serverEntry);
if (!process.argv.includes('--force') && built === wanted && complete) {
  console.log('web client: web/dist and web/dist-server are up to date');
} else {
  console.log('web client: building web/dist and web/dist-server');
  // A production bundle even when the caller runs under NODE_ENV=test (vitest): React's
  // development build would otherwise be served, far larger and slower.
  process.env.NODE_ENV = 'production';
  // web/vite.config.ts applies; a failed build throws, so `npm start` stops before serving stale files.
  await build({ root: webDir, mode: 'production', logLevel: 'warn' });
  await build({ root: webDir, mode: 'production', logLevel: 'warn', build: serverPagesClientBuild });
  // The server module last: it reads the server pages' build manifest for the files each page loads.
  await build({ root: webDir, mode: 'production', logLevel: 'warn', build: { ssr: SERVER_PAGES_ENTRY } });
  writeFileSync(fingerprintFile, wanted);
}
