import type { Charity, Shirt } from '@qrshirt/contracts';
import { toShirt } from '@qrshirt/core';
import { catalogKeys, catalogProjector } from '../projectors/catalog';
import { decodeHash } from '../projectors/hash-fields';
import type { ReadModelStore } from '../store/read-model-store';

interface StoredShirt {
  id: string;
  name: string;
  description: string;
  priceCents: number;
  category?: string;
  sizes: string[];
  tags?: string[];
  images: Shirt['images'];
  seq: number;
}

interface StoredCharity extends Charity {
  seq: number;
}

function toCharity({ seq: _seq, ...charity }: StoredCharity): Charity {
  return charity;
}

const bySeq = (a: { seq: number }, b: { seq: number }) => a.seq - b.seq;

export function createCatalogQueries(store: ReadModelStore) {
  const catalog = store.projection(catalogProjector.name);
  // The shop's lists are read on every visit and change only with the catalogue: keep the last
  // answer per list for as long as the projection's checkpoint has not moved.
  const lists = new Map<string, { checkpoint: number | null; items: unknown[] }>();

  async function all<T>(setKey: string, keyOf: (id: string) => string): Promise<T[]> {
    const ids = await catalog.smembers(setKey);
    const hashes = await catalog.hgetallMany(ids.map(keyOf));
    return hashes.filter((hash) => Object.keys(hash).length > 0).map((hash) => decodeHash(hash) as T);
  }

  async function cachedList<T>(setKey: string, build: () => Promise<T[]>): Promise<T[]> {
    const checkpoint = await catalog.checkpoint();
    const cached = lists.get(setKey);
    if (cached && cached.checkpoint === checkpoint) return cached.items as T[];
    const items = await build();
    lists.set(setKey, { checkpoint, items });
    return items;
  }

  async function one<T>(key: string): Promise<T | null> {
    const hash = await catalog.hgetall(key);
    return Object.keys(hash).length === 0 ? null : (decodeHash(hash) as T);
  }

  return {
    listShirts(): Promise<Shirt[]> {
      return cachedList(catalogKeys.shirts, async () =>
        (await all<StoredShirt>(catalogKeys.shirts, catalogKeys.shirt)).sort(bySeq).map(toShirt),
      );
    },
    async getShirt(id: string): Promise<Shirt | null> {
      const stored = await one<StoredShirt>(catalogKeys.shirt(id));
      return stored && toShirt(stored);
    },
    listCharities(): Promise<Charity[]> {
      return cachedList(catalogKeys.charities, async () =>
        (await all<StoredCharity>(catalogKeys.charities, catalogKeys.charity)).sort(bySeq).map(toCharity),
      );
    },
    async getCharity(id: string): Promise<Charity | null> {
      const stored = await one<StoredCharity>(catalogKeys.charity(id));
      return stored && toCharity(stored);
    },
  };
}
export type CatalogQueries = ReturnType<typeof createCatalogQueries>;
