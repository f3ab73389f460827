import { type EventData, type EventType, eventMetadata } from '@qrshirt/contracts';
import { type NewEvent, seedCatalog, seedCharities, seedShirts } from '@qrshirt/core';
import { createSqliteEventStore } from '@qrshirt/sqlite';

const PARTITIONS = 6;
/** Events appended per group commit while generating. */
const ROUND = 50_000;

/** The fundraisers a generated log holds, which its scans go to. */
export const GENERATED_FUNDRAISERS = Array.from({ length: 5 }, (_, i) => `boot-f-${i}`);

const newEvent = <T extends EventType>(type: T, data: EventData<T>): NewEvent => ({
  type,
  data,
  metadata: eventMetadata(type),
});

/**
 * Appends through the adapter itself, so the rows are what the product writes: the catalogue,
 * a few fundraisers, then scans spread over partition streams, one group commit per round.
 * synchronous=NORMAL: nothing here needs to survive a power cut.
 */
export async function generateScanLog(file: string, events: number): Promise<void> {
  if (events === 0) return;
  const eventStore = createSqliteEventStore({ path: file, synchronous: 'NORMAL' });
  try {
    const at = new Date(Date.UTC(2025, 0, 1)).toISOString();
    await seedCatalog({ eventStore, clock: () => new Date(at) });
    for (const [i, fundraiserId] of GENERATED_FUNDRAISERS.entries()) {
      await eventStore.appendToStream(`fundraiser-${fundraiserId}`, [
        newEvent('FundraiserCreated', {
          fundraiserId,
          userId: `boot-u-${i}`,
          charityId: seedCharities[i % seedCharities.length]!.charityId,
          shirtId: seedShirts[i % seedShirts.length]!.shirtId,
          name: `Boot fundraiser ${i}`,
          at,
        }),
      ]);
    }
    let written = await eventStore.headPosition();
    let serial = 0;
    while (written < events) {
      const count = Math.min(ROUND, events - written);
      const byStream = new Map<string, NewEvent[]>();
      for (let i = 0; i < count; i++, serial++) {
        const stream = `scans-p${serial % PARTITIONS}`;
        const batch = byStream.get(stream) ?? [];
        batch.push(
          newEvent('ScanRecorded', {
            scanId: `boot-s-${serial}`,
            fundraiserId: GENERATED_FUNDRAISERS[serial % GENERATED_FUNDRAISERS.length]!,
            at,
            visitorHash: `boot-v-${serial}`,
            addressHash: `boot-a-${serial % 1000}`,
            bot: false,
            counted: true,
          }),
        );
        byStream.set(stream, batch);
      }
      await Promise.all([...byStream].map(([stream, batch]) => eventStore.appendToStream(stream, batch)));
      written += count;
    }
  } finally {
    await eventStore.close();
  }
}
