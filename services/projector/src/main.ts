import { fundraisersProjector } from '@qrshirt/core';
import {
  createReadiness,
  loadOrExit,
  openEventStore,
  openProcessBasics,
  type OpsServer,
  registerProjectionMetrics,
  runProcess,
  startOpsServer,
} from '@qrshirt/runtime';
import { allProjectors, projectionsRunning, startProjections } from '@qrshirt/projections';
import { createRedisChangeFeed, createRedisReadModelStore } from '@qrshirt/redis';
import { loadProjectorConfig } from './config';

/**
 * The projector process (`npm run start:projector`), the composition root of the distributed
 * read side: every projector follows the event store into Redis, each batch committed together
 * with its checkpoint, while the gateways run with PROJECTIONS=off and only read.
 */
const config = loadOrExit(loadProjectorConfig);
await runProcess('projector', async () => {
  const { log, metrics } = await openProcessBasics({
    service: 'projector',
    level: config.LOG_LEVEL,
    logDir: config.LOG_DIR,
    // DATA_DIR holds the SQLite event store, unless the events are in EventStoreDB.
    privateFolders: [config.EVENTSTORE_URL ? undefined : config.DATA_DIR, config.LOG_DIR],
  });
  const eventStore = openEventStore(config);
  const readModels = createRedisReadModelStore({ url: config.REDIS_URL });
  // The gateways' live streams hear over Redis what this process committed.
  const changeFeed = createRedisChangeFeed({
    url: config.REDIS_URL,
    onError: (err) => log.warn({ err }, 'live updates: Redis change feed'),
  });
  const { projections, stop: stopProjections } = startProjections({
    eventStore,
    store: readModels,
    projectors: allProjectors,
    log,
    // Live streams read the fundraisers' figures: the gateways hear of them over Redis.
    live: { projector: fundraisersProjector, feed: changeFeed },
  });
  registerProjectionMetrics(metrics, { eventStore, projections });
  const readiness = createReadiness({
    eventStore: () => eventStore.headPosition(),
    readModels: () => readModels.ping(),
    projections: () => projectionsRunning(projections.map(({ runner }) => runner)),
  });
  let ops: OpsServer | undefined;
  return {
    log,
    async start() {
      ops = await startOpsServer({ host: config.OPS_HOST, port: config.OPS_PORT, readiness, registry: metrics });
      log.info({ ops: ops.url, projections: allProjectors.map((projector) => projector.name) }, 'projector running');
    },
    async close() {
      await ops?.close();
      await stopProjections();
      await changeFeed.close();
      await readModels.close();
      await eventStore.close();
    },
  };
});
