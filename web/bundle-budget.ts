import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Issue 5: the JavaScript a first visit to the homepage downloads, gzipped, stays under this. */
export const HOMEPAGE_BUDGET_BYTES = 250 * 1024;

/** The route module the homepage lazily loads, as the build manifest names it. */
const HOMEPAGE_ROUTE = 'src/app/routes/home.tsx';

export interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}
export type BuildManifest = Record<string, ManifestChunk>;

/**
 * The script files the browser needs to show `/`: the entry, the home route's chunk and every
 * chunk they import statically (dynamic imports load later, on other routes).
 */
export function homepageScripts(manifest: BuildManifest): string[] {
  const entries = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
  if (!manifest[HOMEPAGE_ROUTE]) throw new Error(`the build manifest has no ${HOMEPAGE_ROUTE}`);
  return staticClosure(manifest, [...entries, HOMEPAGE_ROUTE]);
}

/** The script files of `keys`' chunks and of every chunk they import statically. */
function staticClosure(manifest: BuildManifest, keys: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    if (!manifest[key]) throw new Error(`the build manifest has no ${key}`);
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return [...seen].map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js'));
}

/** Issue 44: what a QR code's visitor's phone downloads before any tap on the landing, gzipped, stays under this. */
export const LANDING_BUDGET_BYTES = 60 * 1024;

/**
 * The modules of the server pages' build (web/dist/.vite/server-pages-manifest.json) that a scan's
 * landing loads without a tap: the pages' boot script, the scan's recording and the landing's own
 * script. Its layout, loaded on a tap or for a signed-in visitor, is not among them.
 */
const LANDING_MODULES = [
  'src/app/server-pages/boot.ts',
  'src/app/server-pages/landing-scan.ts',
  'src/app/server-pages/landing-script.ts',
];

/** The script files of those modules and of every chunk they import statically. */
export function landingScripts(serverPagesManifest: BuildManifest): string[] {
  return staticClosure(serverPagesManifest, LANDING_MODULES);
}

export function gzippedSize(source: string | Uint8Array): number {
  return gzipSync(source).length;
}

/** Prints the homepage's gzipped JavaScript at the end of every build. */
export function homepageBudget(): Plugin {
  return {
    name: 'qrshirt-homepage-budget',
    apply: 'build',
    writeBundle(_options, bundle) {
      const manifestAsset = bundle['.vite/manifest.json'];
      if (!manifestAsset || manifestAsset.type !== 'asset') return;
      const manifest = JSON.parse(String(manifestAsset.source)) as BuildManifest;
      let total = 0;
      for (const file of homepageScripts(manifest)) {
        const chunk = bundle[file];
        if (chunk?.type === 'chunk') total += gzippedSize(chunk.code);
      }
      const verdict = total <= HOMEPAGE_BUDGET_BYTES ? 'within' : 'OVER';
      // Printed whatever the log level, so every build (npm start's included) shows it.
      console.log(
        `homepage JavaScript: ${(total / 1024).toFixed(1)} KB gzipped (${verdict} the ${HOMEPAGE_BUDGET_BYTES / 1024} KB budget)`,
      );
    },
  };
}
