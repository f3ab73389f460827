/**
 * Rebuilds the read models blue/green while the product keeps serving:
 *   REDIS_URL=redis://127.0.0.1:6379 npm run rebuild-projections [-- --projection catalog]
 * or, without REDIS_URL, those in DATA_DIR/read-models.sqlite, which running gateways on the same
 * DATA_DIR share. Each projection is replayed from position 0 into a new version, switched over
 * atomically once caught up, and its old version is dropped.
 */
import { parseArgs } from 'node:util';
import { openEventStore, restrictNewFiles } from '@qrshirt/runtime';
import { allProjectors, rebuildProjection } from '@qrshirt/projections';
import { createRedisReadModelStore } from '@qrshirt/redis';
import { createSqliteReadModelStore } from '@qrshirt/sqlite';
import { pino } from 'pino';
import { loadGatewayConfigOrExit } from '@qrshirt/gateway';

const { values } = parseArgs({ options: { projection: { type: 'string', multiple: true } } });

const config = loadGatewayConfigOrExit();
// The read models it writes into DATA_DIR stay owner-only, as the gateway's are.
restrictNewFiles();
const names = values.projection ?? allProjectors.map((projector) => projector.name);
const unknown = names.filter((name) => !allProjectors.some((projector) => projector.name === name));
if (unknown.length > 0) {
  console.error(`Unknown projection: ${unknown.join(', ')} (known: ${allProjectors.map((p) => p.name).join(', ')})`);
  process.exit(2);
}

const log = pino({ level: config.LOG_LEVEL }, pino.destination(2));
const eventStore = openEventStore(config);
const store = config.REDIS_URL
  ? createRedisReadModelStore({ url: config.REDIS_URL })
  : createSqliteReadModelStore({ path: config.readModelsFile });
try {
  for (const projector of allProjectors.filter((candidate) => names.includes(candidate.name))) {
    const started = Date.now();
    let lastReport = 0;
    const { from, to } = await rebuildProjection({
      eventStore,
      store,
      projector,
      log,
      onProgress({ checkpoint, head }) {
        if (Date.now() - lastReport < 500) return;
        lastReport = Date.now();
        process.stderr.write(`\r${projector.name}: ${checkpoint}/${head}`);
      },
    });
    process.stderr.write(`\r${projector.name}: version ${from} -> ${to} in ${Date.now() - started} ms\n`);
  }
} finally {
  await store.close();
  await eventStore.close();
}
