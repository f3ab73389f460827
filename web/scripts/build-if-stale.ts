/**
 * Builds the web client with Vite unless web/dist already holds a build of exactly the current
 * sources and VITE_* settings (build-fingerprint.mjs). `npm start`'s plain-JavaScript check,
 * scripts/build-if-stale.mjs, runs it only when that is so; the tests run it directly.
 *
 *   npx tsx web/scripts/build-if-stale.ts [--force]
 */
import { writeFileSync } from 'node:fs';
import { build } from 'vite';
import { SERVER_PAGES_ENTRY, serverPagesClientBuild } from '../vite.config';
import { fingerprintFile, webBuildIsCurrent, webDir, webFingerprint } from './build-fingerprint.mjs';

const wanted = webFingerprint();
if (!process.argv.includes('--force') && webBuildIsCurrent(wanted)) {
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
