/**
 * `npm run build:server` (and `npm start` first): bundles the gateway, the ingestor and the
 * projector with esbuild, so a start loads one file of our code instead of hundreds of modules
 * compiled on the fly by tsx, which cost seconds on every restart (see `npm run bench:boot`).
 * About half a second, so it simply runs every time rather than guessing whether it is stale.
 *
 *   npx tsx scripts/build-server.ts
 */
import { buildServerBundles, serverBundles } from './server-bundles';

await buildServerBundles();
console.log(`server: bundled ${serverBundles.map(({ bundle }) => bundle).join(', ')}`);
