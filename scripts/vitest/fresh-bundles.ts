import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The node tests start the gateway, ingestor and projector from their bundles, as `npm start`
 * does (scripts/test-support/src/service-processes.ts): rebuilt here first when their sources
 * changed, so a test never runs yesterday's code. A few milliseconds when they are current.
 */
export default function freshBundles(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL('../build-if-stale.mjs', import.meta.url)), '--server'], {
    stdio: 'inherit',
  });
}
