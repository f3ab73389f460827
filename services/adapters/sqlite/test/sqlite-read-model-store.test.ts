import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ReadModelStore } from '@qrshirt/projections';
import { describeReadModelStoreContract } from '@qrshirt/projections/testing';
import { createSqliteReadModelStore } from '../src/sqlite-read-model-store';

const dir = mkdtempSync(join(tmpdir(), 'sqlite-read-models-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const freshPath = (): string => join(dir, `${randomUUID()}.sqlite`);

describeReadModelStoreContract('sqlite', () => createSqliteReadModelStore({ path: freshPath() }));

describe('sqlite read-model store', () => {
  const opened: ReadModelStore[] = [];
  const open = (path: string): ReadModelStore => {
    const store = createSqliteReadModelStore({ path });
    opened.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });

  it('keeps data, checkpoints and the active version across a reopen of the file', async () => {
    const path = freshPath();
    const first = open(path);
    await first.projection('stats').commit(null, 40, [
      { op: 'hincrby', key: 'totals', field: 'scans', by: 40 },
      { op: 'sadd', key: 'ids', member: 'f1' },
    ]);
    const next = await first.createVersion('stats');
    await first.projection('stats', next).commit(null, 41, [{ op: 'set', key: 'name', value: 'rebuilt' }]);
    await first.activate('stats', next);
    await first.close();

    const reopened = open(path);
    expect(await reopened.activeVersion('stats')).toBe(next);
    expect(await reopened.projection('stats').checkpoint()).toBe(41);
    expect(await reopened.projection('stats').get('name')).toBe('rebuilt');
    expect(await reopened.projection('stats', 1).checkpoint()).toBe(40);
    expect(await reopened.projection('stats', 1).hgetall('totals')).toEqual({ scans: '40' });
    expect(await reopened.createVersion('stats')).toBe(next + 1);
  });

  it('lets two handles on one file (two gateways) see each other’s commits and guards them', async () => {
    const path = freshPath();
    const a = open(path).projection('stats');
    const b = open(path).projection('stats');
    expect(await a.commit(null, 1, [{ op: 'hincrby', key: 'totals', field: 'scans', by: 1 }])).toBe(true);
    expect(await b.checkpoint()).toBe(1);
    expect(await b.commit(1, 2, [{ op: 'hincrby', key: 'totals', field: 'scans', by: 1 }])).toBe(true);
    expect(await a.commit(1, 2, [{ op: 'hincrby', key: 'totals', field: 'scans', by: 1 }])).toBe(false);
    expect(await a.hgetall('totals')).toEqual({ scans: '2' });
  });

  it('refuses to work once closed', async () => {
    const store = open(freshPath());
    await store.close();
    await expect(store.projection('stats').get('k')).rejects.toThrow(/closed/);
  });
});
