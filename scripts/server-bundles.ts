/**
 * The processes `npm start`, the Docker image and docker-compose.yml run: each one bundle of our
 * own TypeScript (every `@qrshirt/*` workspace) next to its sources, with the npm dependencies
 * left to Node to load from node_modules. `scripts/build-server.ts` writes them.
 */
export const serverBundles = [
  { entry: 'services/gateway/src/main.ts', bundle: 'services/gateway/dist/main.mjs' },
  { entry: 'services/ingestor/src/main.ts', bundle: 'services/ingestor/dist/main.mjs' },
  { entry: 'services/projector/src/main.ts', bundle: 'services/projector/dist/main.mjs' },
] as const;

/**
 * The worker threads the processes start, bundled beside each process's bundle under the name
 * their starter looks for there (`dist/sqlite-writer-thread.mjs`: see services/adapters/sqlite/src/sqlite-writer.ts).
 */
export const threadEntries = [
  { entry: 'services/adapters/sqlite/src/sqlite-writer-thread.ts', name: 'sqlite-writer-thread' },
] as const;
