import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EventStore } from '@qrshirt/core';
import { createSqliteEventStore } from '@qrshirt/sqlite';

/** A SQLite event store in a fresh temp folder (NORMAL sync: tests need no power-cut safety). */
export async function openTempEventStore(): Promise<{ eventStore: EventStore; dispose: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'qr-projections-'));
  const eventStore = createSqliteEventStore({ path: join(dir, 'events.sqlite'), synchronous: 'NORMAL' });
  return {
    eventStore,
    async dispose() {
      await eventStore.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
