import { describe, expect, it } from 'vitest';
import { compactOps } from '../src/compact-ops';
import { createMemoryReadModelStore } from '../src/store/memory-read-model-store';
import type { ReadModelOp } from '@qrshirt/core';

const inc = (key: string, field: string, by: number): ReadModelOp => ({ op: 'hincrby', key, field, by });

async function applied(ops: readonly ReadModelOp[]) {
  const store = createMemoryReadModelStore().projection('p');
  await store.commit(null, 1, ops);
  return store.hgetallMany(['a', 'b']);
}

describe('compactOps', () => {
  it('merges the increments of each key and field into one', () => {
    const ops = [
      inc('a', 'scans', 1),
      inc('b', 'scans', 1),
      inc('a', 'scans', 1),
      inc('a', 'cents', 250),
      inc('a', 'cents', -50),
    ];
    expect(compactOps(ops)).toEqual([inc('a', 'scans', 2), inc('b', 'scans', 1), inc('a', 'cents', 200)]);
  });

  it('does not merge across another op on the same key, and applies exactly as the original', async () => {
    const ops: ReadModelOp[] = [
      inc('a', 'n', 1),
      { op: 'del', key: 'a' },
      inc('a', 'n', 5),
      inc('b', 'n', 1),
      { op: 'hset', key: 'b', field: 'n', value: '10' },
      inc('b', 'n', 2),
      inc('a', 'n', 1),
    ];
    const compacted = compactOps(ops);
    expect(compacted).toHaveLength(6);
    expect(await applied(compacted)).toEqual(await applied(ops));
    expect(await applied(compacted)).toEqual([{ n: '6' }, { n: '12' }]);
  });
});
