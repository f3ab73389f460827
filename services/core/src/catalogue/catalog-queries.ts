import type { AdminCharity, Charity, CharityStatus, CharityWithStatus, Shirt } from '@qrshirt/contracts';
import { toShirt } from './shirt-use-cases';
import { decodeHash } from '../kit/hash-fields';
import type { ReadModelStore } from '../ports/read-model-store';
import { catalogKeys, catalogProjector } from './catalog-projector';

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
  legalName?: string;
  taxId?: string;
  /** Absent in hashes projected before charities were reviewed: those were all in the shop. */
  status?: CharityStatus;
  rejectionReason?: string | null;
  createdBy?: string | null;
  createdAt?: string;
}

function toCharity({ id, name, mission, website_url, logo_url }: StoredCharity): Charity {
  return { id, name, mission, website_url, ...(logo_url !== undefined && { logo_url }) };
}

const statusOf = (stored: StoredCharity): CharityStatus => stored.status ?? 'approved';

function withStatus(stored: StoredCharity): CharityWithStatus {
  return {
    ...toCharity(stored),
    status: statusOf(stored),
    ...(typeof stored.rejectionReason === 'string' && { rejectionReason: stored.rejectionReason }),
  };
}

function toAdminCharity(stored: StoredCharity): AdminCharity {
  const { legalName, taxId } = stored;
  return {
    ...toCharity(stored),
    ...(legalName !== undefined && { legalName }),
    ...(taxId !== undefined && { taxId }),
    status: statusOf(stored),
    ...(typeof stored.rejectionReason === 'string' && { rejectionReason: stored.rejectionReason }),
    createdBy: stored.createdBy ?? null,
    createdAt: stored.createdAt ?? null,
  };
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

  /** Every charity whatever its status, in the order they were added. */
  function everyCharity(): Promise<StoredCharity[]> {
    return cachedList(catalogKeys.charities, async () =>
      (await all<StoredCharity>(catalogKeys.charities, catalogKeys.charity)).sort(bySeq),
    );
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
    /** The shop's list: approved charities only. */
    async listCharities(): Promise<Charity[]> {
      return cachedList('charities:approved', async () =>
        (await everyCharity()).filter((stored) => statusOf(stored) === 'approved').map(toCharity),
      );
    },
    /** An approved charity; null for one awaiting review or rejected, as for an unknown id. */
    async getCharity(id: string): Promise<Charity | null> {
      const stored = await one<StoredCharity>(catalogKeys.charity(id));
      return stored && statusOf(stored) === 'approved' ? toCharity(stored) : null;
    },
    /** Each charity's name, in the order asked, whatever its status; null for one not projected (the overview's port). */
    async charityNames(ids: readonly string[]): Promise<(string | null)[]> {
      const hashes = await catalog.hgetallMany(ids.map((id) => catalogKeys.charity(id)));
      return hashes.map((hash) => (decodeHash(hash ?? {}) as { name?: string }).name ?? null);
    },
    /** The charities one member submitted, oldest first, whatever their status: what their submitter sees. */
    async listCharitiesCreatedBy(memberId: string): Promise<CharityWithStatus[]> {
      return (await everyCharity()).filter((stored) => stored.createdBy === memberId).map(withStatus);
    },
    /** For admins: the charities of one review status, oldest first, with who submitted them. */
    async listCharitiesByStatus(status: CharityStatus): Promise<AdminCharity[]> {
      return (await everyCharity()).filter((stored) => statusOf(stored) === status).map(toAdminCharity);
    },
  };
}
export type CatalogQueries = ReturnType<typeof createCatalogQueries>;
