import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folders the gateway serves files from, found from this module's own folder: `src/` when
 * it runs from the sources, `dist/` when it runs from the bundle `npm start` builds. Both sit
 * right below the package, so one relative path serves both.
 */
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Seed images and other files of the gateway's own. */
export const publicDir = path.join(packageDir, 'public');

/** `vite build`'s output; `npm start` builds it first when the web sources changed. */
export const webDistDir = path.resolve(packageDir, '../../web/dist');

/** The QR landing's server module, built with the client (see http/server-pages.ts). */
export const webServerDir = path.resolve(packageDir, '../../web/dist-server');
