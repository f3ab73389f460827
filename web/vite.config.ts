import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { homepageBudget } from './bundle-budget.ts';
import { precompress } from './precompress.ts';

// `npm run dev -w web` serves the client with hot reload; the API, the seed images and the QR
// codes' short links come from the gateway (`npm start`, port 8080 unless PORT says otherwise).
const gateway = `http://localhost:${process.env.GATEWAY_PORT ?? '8080'}`;

/** The server-rendered pages' module for the gateway (issue 16), built into web/dist-server. */
export const SERVER_PAGES_ENTRY = 'src/app/server-pages/entry-server.tsx';

/**
 * The client of the server-rendered pages (the landing, the homepage, the shop, a shirt's page), a
 * build of its own into web/dist beside the app's, so its chunks hold only what those pages need:
 * their boot script, the modules that hydrate them (which boot.ts imports), and their stylesheets,
 * which the server writes into each page. Its manifest is web/dist/.vite/server-pages-manifest.json;
 * web/scripts/build-if-stale.ts runs it after the app's.
 */
export const serverPagesClientBuild = {
  emptyOutDir: false,
  manifest: '.vite/server-pages-manifest.json',
  rollupOptions: {
    input: {
      pages: 'src/app/server-pages/boot.ts',
      'pages-styles': 'src/app/server-pages/pages.css',
      'shirt-styles': 'src/app/server-pages/shirt.css',
    },
    treeshake: {
      // A contracts module none of whose exports the pages use is left out whole: their index
      // would otherwise build every zod schema of the API, on a phone, before hydrating.
      moduleSideEffects: (id: string) => !/[\\/]contracts[\\/]src[\\/]/.test(id),
      // Zod's builders and the contracts' route and event definitions count as free of side
      // effects, so that a schema, route table or event nothing on the pages uses is left out of
      // a module they use too: building zod schemas is the longest work these pages give a
      // phone, and their one side effect, zod's registry of named schemas, is for the server's
      // OpenAPI document.
      manualPureFunctions: ['z', 'defineRoutes', 'defineEvent'],
    },
  },
};

export default defineConfig(({ isSsrBuild }) => ({
  plugins: isSsrBuild ? [react()] : [react(), homepageBudget(), precompress()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: isSsrBuild
    ? { outDir: 'dist-server', emptyOutDir: true, copyPublicDir: false, ssr: SERVER_PAGES_ENTRY }
    : { manifest: true, outDir: 'dist', emptyOutDir: true },
  // One self-contained module: the gateway imports it without resolving the web's packages.
  ssr: { noExternal: true },
  server: {
    proxy: { '/api': gateway, '/images': gateway, '/q/': gateway },
  },
}));
