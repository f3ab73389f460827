/**
 * What web/dist and web/dist-server were built from, as one fingerprint: every input file's path,
 * mtime and size, and the VITE_* settings. Plain JavaScript, so that `npm start`'s check
 * (scripts/build-if-stale.mjs) runs on Node alone, with no TypeScript to compile first;
 * web/scripts/build-if-stale.ts writes the fingerprint after each build.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distDir = path.join(webDir, 'dist');
/** The server-rendered pages' module, which the gateway imports to render them (issue 16). */
const serverEntry = path.join(webDir, 'dist-server', 'entry-server.js');
export const fingerprintFile = path.join(distDir, '.build-fingerprint');

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

/** @param {string} entry @returns {string[]} */
function files(entry) {
  if (!existsSync(entry) || notBundled.test(entry)) return [];
  if (!statSync(entry).isDirectory()) return [entry];
  return readdirSync(entry, { withFileTypes: true }).flatMap((child) => files(path.join(entry, child.name)));
}

/** The fingerprint of the sources and settings as they are now. */
export function webFingerprint() {
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

/** Whether web/dist and web/dist-server hold a whole build of exactly `wanted`'s sources and settings. */
export function webBuildIsCurrent(wanted = webFingerprint()) {
  const built = existsSync(fingerprintFile) ? readFileSync(fingerprintFile, 'utf8') : null;
  return built === wanted && existsSync(path.join(distDir, 'index.html')) && existsSync(serverEntry);
}
