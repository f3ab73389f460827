import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { charityDecider, charityStreamName } from '../src/catalogue/charity-decider';
import { createCommandHandler } from '../src/kit/command-handler';
import { shirtDecider, shirtStreamName } from '../src/catalogue/shirt-decider';
import type { EventStore } from '../src/kit/event-store';
import { createInMemoryEventStore } from '@qrshirt/core';
import { seedCharities, seedShirts } from '../src/catalogue/catalog-data';
import { seedCatalog, seedCharityFields, seedShirtFields } from '../src/catalogue/seed-catalog';

const publicDir = fileURLToPath(new URL('../../gateway/public', import.meta.url));
const clock = () => new Date('2025-01-01T00:00:00.000Z');

let eventStore: EventStore;

beforeEach(() => {
  eventStore = createInMemoryEventStore();
});

afterEach(async () => {
  await eventStore.close();
});

describe('seedCatalog', () => {
  it('adds at least 8 shirts and 5 charities, each in its own stream', async () => {
    const result = await seedCatalog({ eventStore, clock });

    expect(seedShirts.length).toBeGreaterThanOrEqual(8);
    expect(seedCharities.length).toBeGreaterThanOrEqual(5);
    expect(result.skipped).toEqual([]);
    expect(result.added).toHaveLength(seedShirts.length + seedCharities.length);
    const events = await eventStore.readAll();
    expect(events.filter((event) => event.type === 'ShirtAdded')).toHaveLength(seedShirts.length);
    expect(events.filter((event) => event.type === 'CharityCreated')).toHaveLength(seedCharities.length);
  });

  it('adds nothing when run again', async () => {
    await seedCatalog({ eventStore, clock });
    const head = await eventStore.headPosition();

    const again = await seedCatalog({ eventStore, clock });

    expect(again.added).toEqual([]);
    expect(again.skipped).toHaveLength(seedShirts.length + seedCharities.length);
    expect(await eventStore.headPosition()).toBe(head);
    expect(await eventStore.readAll()).toHaveLength(head);
  });

  it('adds nothing twice when two processes seed at the same time', async () => {
    await Promise.all([seedCatalog({ eventStore, clock }), seedCatalog({ eventStore, clock })]);

    expect(await eventStore.readAll()).toHaveLength(seedShirts.length + seedCharities.length);
  });

  it('leaves an existing entry as it is', async () => {
    const commands = createCommandHandler({ eventStore });
    const first = seedShirts[0]!;
    await commands.handle(shirtStreamName(first.shirtId), shirtDecider, () => ({
      type: 'AddShirt',
      shirtId: first.shirtId,
      fields: { ...seedShirtFields(first), priceCents: 1 },
      at: clock().toISOString(),
    }));

    const result = await seedCatalog({ eventStore, clock });

    expect(result.skipped).toEqual([shirtStreamName(first.shirtId)]);
    expect(await commands.loadState(shirtStreamName(first.shirtId), shirtDecider)).toMatchObject({ priceCents: 1 });
  });

  it('loads back as the catalogue data', async () => {
    await seedCatalog({ eventStore, clock });
    const commands = createCommandHandler({ eventStore });

    for (const charity of seedCharities) {
      const state = await commands.loadState(charityStreamName(charity.charityId), charityDecider);
      expect(state).toMatchObject(seedCharityFields(charity));
    }
    for (const shirt of seedShirts) {
      const state = await commands.loadState(shirtStreamName(shirt.shirtId), shirtDecider);
      expect(state).toMatchObject(seedShirtFields(shirt));
    }
  });
});

describe('seed catalogue data', () => {
  const shirtFields = seedShirts.map(seedShirtFields);

  it('gives every shirt 3 or 4 images with exactly one main image', () => {
    for (const shirt of shirtFields) {
      expect(shirt.images.length).toBeGreaterThanOrEqual(3);
      expect(shirt.images.length).toBeLessThanOrEqual(4);
      expect(shirt.images.filter((image) => image.isMain)).toHaveLength(1);
      expect(shirt.images.every((image) => image.alt.length > 0)).toBe(true);
    }
  });

  it('covers what the shop cards show: main image not first, no category, no tags, more than 3 sizes and 2 tags', () => {
    expect(shirtFields.some((shirt) => !shirt.images[0]!.isMain)).toBe(true);
    expect(shirtFields.some((shirt) => shirt.category === undefined)).toBe(true);
    expect(shirtFields.some((shirt) => shirt.tags === undefined)).toBe(true);
    expect(shirtFields.some((shirt) => shirt.sizes.length > 3)).toBe(true);
    expect(shirtFields.some((shirt) => (shirt.tags?.length ?? 0) > 2)).toBe(true);
  });

  it('points every image and logo at an SVG file the gateway serves', () => {
    const urls = [
      ...shirtFields.flatMap((shirt) => shirt.images.map((image) => image.url)),
      ...seedCharities.map((charity) => seedCharityFields(charity).logo_url!),
    ];
    for (const url of urls) {
      expect(url).toMatch(/^\/images\/(shirts|charities)\/[a-z0-9-]+\.svg$/);
      const file = `${publicDir}${url}`;
      expect(existsSync(file), `${url} is missing; run npx tsx scripts/generate-seed-images.ts`).toBe(true);
      expect(readFileSync(file, 'utf8')).toMatch(/^<svg [^>]*viewBox="[^"]+"[^>]*><title>[^<]+<\/title>/);
    }
  });
});
