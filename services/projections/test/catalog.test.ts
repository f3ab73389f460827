import type { DomainEvent } from '@qrshirt/contracts';
import { describe, expect, it } from 'vitest';
import { hsetFields, type ReadModelOp, catalogKeys, catalogProjector, createCatalogQueries } from '@qrshirt/core';
import { createMemoryReadModelStore } from '../src/store/memory-read-model-store';

const at = '2026-03-01T10:00:00.000Z';
const fields = { mission: 'Helps.', website_url: 'https://help.example.org' };

const created = (charityId: string, status: 'pending' | 'approved', createdBy: string | null = null): DomainEvent => ({
  type: 'CharityCreated',
  data: { charityId, name: `Charity ${charityId}`, ...fields, createdBy, status, at },
});

/** Projects the events, as the runner would, into a fresh in-process store. */
async function catalogOf(events: DomainEvent[], extraOps: ReadModelOp[] = []) {
  const store = createMemoryReadModelStore();
  const ops = events.flatMap((event, index) =>
    catalogProjector.project(event, { globalPosition: index + 1, recordedAt: new Date(at) }),
  );
  await store.projection(catalogProjector.name).commit(null, events.length + 1, [...extraOps, ...ops]);
  return createCatalogQueries(store);
}

describe('the catalogue read model of charities', () => {
  it('shows the shop approved charities only, and admins each status with its submitter', async () => {
    const catalog = await catalogOf([
      created('seeded', 'approved'),
      created('waiting', 'pending', 'member-1'),
      created('turned-down', 'pending', 'member-2'),
      created('let-in', 'pending', 'member-3'),
      { type: 'CharityRejected', data: { charityId: 'turned-down', rejectedBy: 'admin', reason: 'No register.', at } },
      { type: 'CharityApproved', data: { charityId: 'let-in', approvedBy: 'admin', at } },
    ]);

    expect((await catalog.listCharities()).map((charity) => charity.id)).toEqual(['seeded', 'let-in']);
    expect(await catalog.listCharities()).toContainEqual({ id: 'let-in', name: 'Charity let-in', ...fields });
    expect(await catalog.getCharity('waiting')).toBeNull();
    expect(await catalog.getCharity('turned-down')).toBeNull();
    expect(await catalog.getCharity('let-in')).toEqual({ id: 'let-in', name: 'Charity let-in', ...fields });

    expect(await catalog.listCharitiesByStatus('pending')).toEqual([
      { id: 'waiting', name: 'Charity waiting', ...fields, status: 'pending', createdBy: 'member-1', createdAt: at },
    ]);
    expect(await catalog.listCharitiesByStatus('rejected')).toEqual([
      expect.objectContaining({ id: 'turned-down', status: 'rejected', rejectionReason: 'No register.' }),
    ]);
    const approved = await catalog.listCharitiesByStatus('approved');
    expect(approved.map((charity) => charity.id)).toEqual(['seeded', 'let-in']);
    expect(approved[1]).not.toHaveProperty('rejectionReason');
  });

  it('reads a charity projected before reviews (no status in its hash, as Redis may keep it) as approved', async () => {
    const catalog = await catalogOf(
      [],
      [
        { op: 'sadd', key: catalogKeys.charities, member: 'old' },
        ...hsetFields(catalogKeys.charity('old'), { id: 'old', name: 'Old', ...fields, seq: 1 }),
      ],
    );
    expect(await catalog.listCharities()).toEqual([{ id: 'old', name: 'Old', ...fields }]);
    expect(await catalog.listCharitiesByStatus('approved')).toEqual([
      { id: 'old', name: 'Old', ...fields, status: 'approved', createdBy: null, createdAt: null },
    ]);
  });
});
