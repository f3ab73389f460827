import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type BuildManifest, gzippedSize, HOMEPAGE_BUDGET_BYTES, homepageScripts } from '../bundle-budget';

const distDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');

// The global setup started the app with `npm start`, which built web/dist from the current sources.
describe("the homepage's JavaScript", () => {
  const manifest = JSON.parse(readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8')) as BuildManifest;
  const scripts = homepageScripts(manifest);

  it('is at most 250 KB gzipped', () => {
    const total = scripts.reduce((sum, file) => sum + gzippedSize(readFileSync(path.join(distDir, file))), 0);
    console.log(`homepage JavaScript: ${(total / 1024).toFixed(1)} KB gzipped in ${scripts.length} files`);
    expect(total).toBeLessThanOrEqual(HOMEPAGE_BUDGET_BYTES);
  });

  it('leaves the other screens to their own chunks', () => {
    for (const route of ['dashboard', 'qr-landing', 'sign-in', 'shirt', 'privacy']) {
      const chunk = manifest[`src/app/routes/${route}.tsx`];
      expect(chunk, route).toBeDefined();
      expect(scripts, route).not.toContain(chunk!.file);
    }
  });
});
