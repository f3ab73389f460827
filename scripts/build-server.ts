/**
 * `npm run build:server` (and `npm start` first): bundles the gateway, the ingestor and the
 * projector with esbuild, so a start loads one file of our code instead of hundreds of modules
 * compiled on the fly by tsx, which cost seconds on every restart (see `npm run bench:boot`).
 * About half a second, so it simply runs every time rather than guessing whether it is stale.
 *
 *   npx tsx scripts/build-server.ts
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { serverBundles, threadEntries } from './server-bundles';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Our workspaces are TypeScript and go into the bundle; every npm package stays a bare import
 * that Node resolves from node_modules, native ones (better-sqlite3) and those that find their
 * own files at run time included.
 */
const npmPackagesExternal: Plugin = {
  name: 'npm-packages-external',
  setup(plugins) {
    plugins.onResolve({ filter: /^[^./]/ }, ({ path: specifier }) =>
      specifier.startsWith('@qrshirt/') ? undefined : { path: specifier, external: true },
    );
  },
};

await build({
  absWorkingDir: root,
  entryPoints: serverBundles.flatMap(({ entry, bundle }) => [
    { in: entry, out: bundle.replace(/\.mjs$/, '') },
    ...threadEntries.map((thread) => ({ in: thread.entry, out: path.join(path.dirname(bundle), thread.name) })),
  ]),
  outdir: root,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: true,
  plugins: [npmPackagesExternal],
  logLevel: 'warning',
});
console.log(`server: bundled ${serverBundles.map(({ bundle }) => bundle).join(', ')}`);
