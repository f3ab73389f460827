import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { homepageBudget } from './bundle-budget.ts';
import { precompress } from './precompress.ts';

// `npm run dev -w web` serves the client with hot reload; the API, the seed images and the QR
// codes' short links come from the gateway (`npm start`, port 8080 unless PORT says otherwise).
const gateway = `http://localhost:${process.env.GATEWAY_PORT ?? '8080'}`;

export default defineConfig({
  plugins: [react(), homepageBudget(), precompress()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    manifest: true,
    outDir: 'dist',
    emptyOutDir: true,
  },
  server: {
    proxy: { '/api': gateway, '/images': gateway, '/q/': gateway },
  },
});
