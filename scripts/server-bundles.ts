import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { writeServerBundlesStamp } from './server-build-stamp.mjs';

/**
 * The processes `npm start`, the Docker image and docker-compose.yml run: each one bundle of our
 * own TypeScript (every `@qrshirt/*` workspace) next to its sources, with the npm dependencies
 * left to Node to load from node_modules. `scripts/build-server.ts` writes them.
 */
export const serverBundles = [
  { name: 'gateway', entry: 'services/gateway/src/main.ts', bundle: 'services/gateway/dist/main.mjs' },
  { name: 'ingestor', entry: 'services/ingestor/src/main.ts', bundle: 'services/ingestor/dist/main.mjs' },
  { name: 'projector', entry: 'services/projector/src/main.ts', bundle: 'services/projector/dist/main.mjs' },
] as const;

export type ServerProcessName = (typeof serverBundles)[number]['name'];

/**
 * The command-line tools package.json runs (`npm run backup` and the others), bundled the same
 * way: most import `@qrshirt/gateway`, which from the sources tsx compiles module by module on
 * every run (2.1 s of CPU for a restore, against 0.7 s from its bundle).
 */
export const cliBundles = [
  'admin',
  'backup',
  'migrate-lookup-keys',
  'migrate-personal-data',
  'rebuild-projections',
  'reconcile',
  'replay-donations',
  'restore',
].map((name) => ({ name, entry: `scripts/${name}.ts`, bundle: `scripts/dist/${name}.mjs` }));

/**
 * The worker threads the processes start, bundled beside each process's and tool's bundle under the name
 * their starter looks for there (`dist/sqlite-writer-thread.mjs`: see services/adapters/sqlite/src/sqlite-writer.ts).
 */
export const threadEntries = [
  { entry: 'services/adapters/sqlite/src/sqlite-writer-thread.ts', name: 'sqlite-writer-thread' },
] as const;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The command that runs a process's bundle, as package.json, the Dockerfile and docker-compose.yml
 * write it: with its source maps on, a stack trace names our TypeScript files and lines, not the
 * bundle's (the worker threads inherit the flag).
 */
export const bundleCommand = (name: ServerProcessName): [string, ...string[]] => [
  process.execPath,
  '--enable-source-maps',
  path.join(root, serverBundles.find((bundle) => bundle.name === name)!.bundle),
];

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

/**
 * Writes every bundle and its source map, about half a second, and the stamp of what they were
 * built from that `npm start`'s check compares (scripts/server-build-stamp.mjs).
 */
export async function buildServerBundles(): Promise<void> {
  const startedAt = Date.now();
  const bundles = [...serverBundles, ...cliBundles];
  const folders = [...new Set(bundles.map(({ bundle }) => path.dirname(bundle)))];
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: [
      ...bundles.map(({ entry, bundle }) => ({ in: entry, out: bundle.replace(/\.mjs$/, '') })),
      ...folders.flatMap((folder) =>
        threadEntries.map((thread) => ({ in: thread.entry, out: path.join(folder, thread.name) })),
      ),
    ],
    outdir: root,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: true,
    plugins: [npmPackagesExternal],
    logLevel: 'warning',
    metafile: true,
  });
  writeServerBundlesStamp({ inputs: Object.keys(metafile.inputs), outputs: Object.keys(metafile.outputs), startedAt });
}
