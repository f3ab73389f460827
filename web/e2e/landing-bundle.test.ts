import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type BuildManifest, gzippedSize, LANDING_BUDGET_BYTES, landingScripts } from '../bundle-budget';

const distDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');

// The global setup started the app with `npm start`, which built web/dist from the current sources.
describe("the QR landing's JavaScript", () => {
  const manifest = JSON.parse(
    readFileSync(path.join(distDir, '.vite/server-pages-manifest.json'), 'utf8'),
  ) as BuildManifest;
  const scripts = landingScripts(manifest);

  it('is at most 60 KB gzipped before any tap, a scan recorded', () => {
    const total = scripts.reduce((sum, file) => sum + gzippedSize(readFileSync(path.join(distDir, file))), 0);
    console.log(`QR landing JavaScript: ${(total / 1024).toFixed(1)} KB gzipped in ${scripts.length} files`);
    expect(total).toBeLessThanOrEqual(LANDING_BUDGET_BYTES);
  });

  it('holds no React: the layout that needs it comes on demand', () => {
    const layout = manifest['src/app/server-pages/landing-layout.tsx'];
    expect(layout).toBeDefined();
    expect(scripts).not.toContain(layout!.file);
    // React's elements are tagged with this symbol's name, in react's and react-dom's code alike.
    for (const file of scripts) {
      expect(readFileSync(path.join(distDir, file), 'utf8'), file).not.toContain('react.transitional.element');
    }
  });
});
