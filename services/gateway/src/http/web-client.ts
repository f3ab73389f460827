import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type RequestHandler, Router } from 'express';

/** `vite build`'s output; `npm start` builds it first when the web sources changed. */
export const webDistDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../web/dist');

/** Client routes have no file extension; a missing /images/x.svg must stay a 404, not become the app. */
function isClientRoute(requestPath: string): boolean {
  return path.extname(requestPath) === '';
}

/**
 * The React client: hashed bundles cached for a year, everything else revalidated, the seed
 * images from the gateway's public folder, and index.html for every other client route so the
 * browser's router can show it (the spec's Page Not Found included). Mounted after /api.
 */
export function webClient({ distDir = webDistDir, publicDir }: { distDir?: string; publicDir: string }): Router {
  const indexFile = path.join(distDir, 'index.html');
  const spaFallback: RequestHandler = (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !isClientRoute(req.path)) return next();
    if (!existsSync(indexFile)) {
      res.status(503).json({ error: 'The web client is not built: run `npm run build -w web` (npm start does it)' });
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(indexFile);
  };
  return Router()
    .use('/assets', express.static(path.join(distDir, 'assets'), { immutable: true, maxAge: '1y', index: false }))
    .use(express.static(distDir, { index: false }))
    .use(express.static(publicDir, { maxAge: '1h', index: false }))
    .use(spaFallback);
}
