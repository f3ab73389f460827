/**
 * `npm run build:server` (and `npm start` and the command-line tools first, when
 * scripts/build-if-stale.mjs finds the bundles stale): bundles the gateway, the ingestor, the
 * projector and the tools with esbuild, so a start loads one file of our code instead of hundreds
 * of modules compiled on the fly by tsx, which cost seconds on every restart (see `npm run bench:boot`).
 *
 *   npx tsx scripts/build-server.ts
 */
import { buildServerBundles, cliBundles, serverBundles } from './server-bundles';

await buildServerBundles();
console.log(
  `server: bundled ${serverBundles.map(({ bundle }) => bundle).join(', ')} and ${cliBundles.length} tools in scripts/dist`,
);
