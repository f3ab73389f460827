/**
 * What the server bundles were built from: each file esbuild read (its metafile's inputs), the
 * workspaces' package.json files (how `@qrshirt/*` resolves), the lock file and the build's own
 * setup, each with its mtime and size, and the files the build wrote. Plain JavaScript, so that
 * `npm start`'s check (scripts/build-if-stale.mjs) runs on Node alone; scripts/server-bundles.ts
 * writes the stamp after each build.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Beside the other tools' caches: outside git, and gone with a fresh install. */
const stampFile = path.join(root, 'node_modules', '.cache', 'qrshirt', 'server-bundles.json');

/**
 * @param {string} file
 * @returns {unknown}
 */
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** Files every build depends on besides those esbuild reports reading. */
function setupFiles() {
  const { workspaces } = /** @type {{ workspaces: string[] }} */ (readJson(path.join(root, 'package.json')));
  return [
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsconfig.base.json',
    'scripts/server-bundles.ts',
    'scripts/build-server.ts',
    ...workspaces.map((workspace) => `${workspace}/package.json`),
  ];
}

/** @param {string} file relative to the repository's root */
const statOf = (file) => statSync(path.join(root, file), { throwIfNoEntry: false });

/** @param {import('node:fs').Stats | undefined} stat */
const version = (stat) => (stat ? `${stat.mtimeMs}:${stat.size}` : 'missing');

/** Whether the bundles exist and every file they were built from is as it was then. */
export function serverBundlesAreCurrent() {
  if (!existsSync(stampFile)) return false;
  const stamp = /** @type {{ inputs: Record<string, string>, outputs: string[] }} */ (readJson(stampFile));
  return (
    stamp.outputs.every((file) => existsSync(path.join(root, file))) &&
    Object.entries(stamp.inputs).every(([file, was]) => version(statOf(file)) === was)
  );
}

/**
 * Records a build that started at `startedAt` (Date.now()). A file changed since then may have
 * been read before its change: no stamp then, so the next check builds again.
 * @param {{ inputs: string[], outputs: string[], startedAt: number }} build
 */
export function writeServerBundlesStamp({ inputs, outputs, startedAt }) {
  rmSync(stampFile, { force: true });
  const stats = [...new Set([...inputs, ...setupFiles()])].sort().map((file) => ({ file, stat: statOf(file) }));
  if (stats.some(({ stat }) => stat !== undefined && stat.mtimeMs > startedAt)) return;
  mkdirSync(path.dirname(stampFile), { recursive: true });
  writeFileSync(
    stampFile,
    JSON.stringify({ inputs: Object.fromEntries(stats.map(({ file, stat }) => [file, version(stat)])), outputs }),
  );
}
