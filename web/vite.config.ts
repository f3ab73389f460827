import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { homepageBudget } from './bundle-budget.ts';
import { precompress } from './precompress.ts';

// `npm run dev -w web` serves the client with hot reload; the API, the seed images and the QR
// codes' short links come from the gateway (`npm start`, port 8080 unless PORT says otherwise).
const gateway = `http://localhost:${process.env.GATEWAY_PORT ?? '8080'}`;

/** The server-rendered QR landing's module for the gateway (issue 16), built into web/dist-server. */
export const LANDING_SERVER_ENTRY = 'src/app/landing/entry-server.tsx';

export default defineConfig(({ isSsrBuild }) => ({
  plugins: isSsrBuild ? [react()] : [react(), homepageBudget(), precompress()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: isSsrBuild
    ? { outDir: 'dist-server', emptyOutDir: true, copyPublicDir: false, ssr: LANDING_SERVER_ENTRY }
    : {
        manifest: true,
        outDir: 'dist',
        emptyOutDir: true,
        rollupOptions: {
          // The app; and the server-rendered landing's own two entries: its early scan script,
          // and what hydrates it without the rest of the app.
          input: {
            index: 'index.html',
            landing: 'src/app/landing/entry-client.tsx',
            scan: 'src/app/landing/scan.ts',
          },
        },
      },
  // One self-contained module: the gateway imports it without resolving the web's packages.
  ssr: { noExternal: true },
  server: {
    proxy: { '/api': gateway, '/images': gateway, '/q/': gateway },
  },
}));
