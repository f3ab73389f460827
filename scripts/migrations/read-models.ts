import { type EventStore, withoutTruncated } from '@qrshirt/core';
import type { loadGatewayConfigOrExit } from '@qrshirt/gateway';
import { allProjectors, rebuildProjection, type ReadModelStore } from '@qrshirt/projections';
import { createRedisReadModelStore } from '@qrshirt/redis';
import { openEventStore } from '@qrshirt/runtime';
import { createSqliteReadModelStore } from '@qrshirt/sqlite';
import { pino } from 'pino';
import { throttled } from './progress';

/**
 * Projects every projection again from the log (blue/green, `npm run rebuild-projections`'s way),
 * from $all without what a migration by copies truncated: those events are still there until
 * the server's scavenge deletes them, and read models would count them twice.
 */
export async function rebuildReadModels(
  config: ReturnType<typeof loadGatewayConfigOrExit>,
  truncatedBefore: ReadonlyMap<string, number>,
  say: (line: string) => void,
): Promise<void> {
  const opened = openEventStore(config);
  const eventStore: EventStore = withoutTruncated(opened, truncatedBefore);
  const store: ReadModelStore = config.REDIS_URL
    ? createRedisReadModelStore({ url: config.REDIS_URL })
    : createSqliteReadModelStore({ path: config.readModelsFile });
  const log = pino({ level: config.LOG_LEVEL }, pino.destination(2));
  try {
    for (const projector of allProjectors) {
      let checkpoint = 0;
      let head = 0;
      const report = throttled(say, () => `read models: ${projector.name} ${checkpoint}/${head}`);
      await rebuildProjection({
        eventStore,
        store,
        projector,
        log,
        onProgress(progress) {
          ({ checkpoint, head } = progress);
          report();
        },
      });
    }
    say(`read models rebuilt from the migrated log (${allProjectors.length} projections)`);
  } finally {
    await store.close();
    await opened.close();
  }
}
