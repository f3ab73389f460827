import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReadModelValueError, ReadModelVersionError } from './read-model-store-errors';
import type { ProjectionStore, ReadModelOp, ReadModelStore } from '@qrshirt/core';

/**
 * The behaviour every read-model store adapter must show. `setup` runs before each test and
 * must hand out a store no other test sees (a fresh one, or one under a fresh key prefix);
 * the suite closes it after the test.
 */
export function describeReadModelStoreContract(
  name: string,
  setup: () => ReadModelStore | Promise<ReadModelStore>,
): void {
  describe(`${name} read-model store contract`, () => {
    let store: ReadModelStore;
    let stats: ProjectionStore;

    beforeEach(async () => {
      store = await setup();
      stats = store.projection('stats');
    });
    afterEach(async () => {
      await store.close();
    });

    describe('ops', () => {
      it('set writes a string that get and mget read back, in the order asked', async () => {
        await stats.commit(null, 1, [
          { op: 'set', key: 'a', value: 'first' },
          { op: 'set', key: 'b', value: '' },
          { op: 'set', key: 'a', value: 'second' },
        ]);
        expect(await stats.get('a')).toBe('second');
        expect(await stats.get('b')).toBe('');
        expect(await stats.mget(['b', 'missing', 'a'])).toEqual(['', null, 'second']);
        expect(await stats.mget([])).toEqual([]);
      });

      it('hset writes fields that hgetall and hgetallMany read back', async () => {
        await stats.commit(null, 1, [
          { op: 'hset', key: 'f1', field: 'name', value: 'Run for water' },
          { op: 'hset', key: 'f1', field: 'city', value: 'Lyon' },
          { op: 'hset', key: 'f1', field: 'name', value: 'Walk for water' },
          { op: 'hset', key: 'f2', field: '__proto__', value: 'kept' },
        ]);
        expect(await stats.hgetall('f1')).toEqual({ name: 'Walk for water', city: 'Lyon' });
        const many = await stats.hgetallMany(['f2', 'missing', 'f1']);
        expect(many).toEqual([{ ['__proto__']: 'kept' }, {}, { name: 'Walk for water', city: 'Lyon' }]);
        expect(Object.keys(many[0] ?? {})).toEqual(['__proto__']);
        expect(await stats.hgetallMany([])).toEqual([]);
      });

      it('hincrby counts from 0, up and down, across commits', async () => {
        await stats.commit(null, 1, [
          { op: 'hincrby', key: 'totals', field: 'scans', by: 1 },
          { op: 'hincrby', key: 'totals', field: 'scans', by: 2 },
          { op: 'hincrby', key: 'totals', field: 'cents', by: -250 },
        ]);
        await stats.commit(1, 2, [{ op: 'hincrby', key: 'totals', field: 'scans', by: 4 }]);
        expect(await stats.hgetall('totals')).toEqual({ scans: '7', cents: '-250' });
      });

      it('hincrby handles large integer steps up to the safe-integer limit', async () => {
        await stats.commit(null, 1, [
          { op: 'hincrby', key: 'big', field: 'a', by: 1e15 },
          { op: 'hincrby', key: 'big', field: 'b', by: Number.MAX_SAFE_INTEGER },
          { op: 'hincrby', key: 'big', field: 'c', by: -(2 ** 40) },
        ]);
        expect(await stats.hgetall('big')).toEqual({
          a: '1000000000000000',
          b: String(Number.MAX_SAFE_INTEGER),
          c: String(-(2 ** 40)),
        });
      });

      it('hincrby continues from a value an earlier hset wrote', async () => {
        await stats.commit(null, 1, [{ op: 'hset', key: 'h', field: 'n', value: '40' }]);
        await stats.commit(1, 2, [
          { op: 'hset', key: 'h', field: 'm', value: '10' },
          { op: 'hincrby', key: 'h', field: 'm', by: 5 },
          { op: 'hincrby', key: 'h', field: 'n', by: 2 },
        ]);
        expect(await stats.hgetall('h')).toEqual({ n: '42', m: '15' });
      });

      it('sadd collects distinct members; smembers reads them in any order', async () => {
        await stats.commit(null, 1, [
          { op: 'sadd', key: 'donors', member: 'u1' },
          { op: 'sadd', key: 'donors', member: 'u2' },
        ]);
        await stats.commit(1, 2, [{ op: 'sadd', key: 'donors', member: 'u1' }]);
        expect((await stats.smembers('donors')).sort()).toEqual(['u1', 'u2']);
      });

      it('rename moves a stored tally under a new name and later increments start afresh', async () => {
        await stats.commit(null, 1, [
          { op: 'hincrby', key: 'tally', field: 'scans', by: 3 },
          { op: 'hset', key: 'closed', field: 'old', value: 'gone' },
        ]);
        await stats.commit(1, 2, [
          { op: 'hincrby', key: 'tally', field: 'scans', by: 2 },
          { op: 'rename', key: 'tally', to: 'closed' },
          { op: 'hincrby', key: 'tally', field: 'scans', by: 1 },
          { op: 'hincrby', key: 'closed', field: 'scans', by: 10 },
        ]);
        expect(await stats.hgetall('closed')).toEqual({ scans: '15' });
        expect(await stats.hgetall('tally')).toEqual({ scans: '1' });
      });

      it('rename of a key that holds nothing deletes the target', async () => {
        await stats.commit(null, 1, [{ op: 'set', key: 'target', value: 'v' }]);
        await stats.commit(1, 2, [{ op: 'rename', key: 'never-written', to: 'target' }]);
        expect(await stats.get('target')).toBeNull();
      });

      it('a batch that fails after a rename leaves both keys as they were', async () => {
        await stats.commit(null, 1, [{ op: 'hincrby', key: 'tally', field: 'n', by: 4 }]);
        await expect(
          stats.commit(1, 2, [
            { op: 'rename', key: 'tally', to: 'moved' },
            { op: 'hincrby', key: 'moved', field: 'n', by: 1 },
            { op: 'sadd', key: 'moved', member: 'x' },
          ]),
        ).rejects.toThrow();
        expect(await stats.hgetall('tally')).toEqual({ n: '4' });
        expect(await stats.hgetall('moved')).toEqual({});
      });

      it('del removes a string, a hash and a set', async () => {
        await stats.commit(null, 1, [
          { op: 'set', key: 's', value: 'v' },
          { op: 'hset', key: 'h', field: 'f', value: 'v' },
          { op: 'sadd', key: 'm', member: 'v' },
        ]);
        await stats.commit(1, 2, [
          { op: 'del', key: 's' },
          { op: 'del', key: 'h' },
          { op: 'del', key: 'm' },
          { op: 'del', key: 'never-written' },
        ]);
        expect(await stats.get('s')).toBeNull();
        expect(await stats.hgetall('h')).toEqual({});
        expect(await stats.smembers('m')).toEqual([]);
      });

      it('applies the ops of one commit in order', async () => {
        await stats.commit(null, 1, [
          { op: 'hset', key: 'k', field: 'f', value: '1' },
          { op: 'del', key: 'k' },
          { op: 'set', key: 'k', value: 'string now' },
          { op: 'del', key: 'k' },
          { op: 'hincrby', key: 'k', field: 'g', by: 3 },
        ]);
        expect(await stats.hgetall('k')).toEqual({ g: '3' });
      });

      it('keeps keys, fields and values with separators, glob characters and unicode apart', async () => {
        const odd = ['a:b', 'a', 'a*', 'v1:d:x', 'spaced key', 'é✓', '[x]?\\'];
        await stats.commit(
          null,
          1,
          odd.map((key, i) => ({ op: 'set', key, value: `${key}=${i}` })),
        );
        await stats.commit(1, 2, [{ op: 'hset', key: 'h:*', field: 'f:*', value: 'ünï\ncode' }]);
        expect(await stats.mget(odd)).toEqual(odd.map((key, i) => `${key}=${i}`));
        expect(await stats.hgetall('h:*')).toEqual({ 'f:*': 'ünï\ncode' });
      });

      it('reads unknown keys as null, {} and []', async () => {
        expect(await stats.get('nope')).toBeNull();
        expect(await stats.mget(['nope', 'nada'])).toEqual([null, null]);
        expect(await stats.hgetall('nope')).toEqual({});
        expect(await stats.hgetallMany(['nope'])).toEqual([{}]);
        expect(await stats.smembers('nope')).toEqual([]);
        expect(await store.projection('never-used', 7).get('nope')).toBeNull();
      });

      it('hands out copies: changing what a read returned changes nothing stored', async () => {
        await stats.commit(null, 1, [
          { op: 'hset', key: 'h', field: 'f', value: 'v' },
          { op: 'sadd', key: 's', member: 'm' },
        ]);
        const hash = await stats.hgetall('h');
        hash.f = 'changed';
        hash.extra = 'x';
        (await stats.hgetallMany(['h']))[0]!.f = 'changed';
        (await stats.smembers('s')).push('intruder');
        expect(await stats.hgetall('h')).toEqual({ f: 'v' });
        expect(await stats.smembers('s')).toEqual(['m']);
      });

      it('reading a key as the wrong kind throws ReadModelValueError', async () => {
        await stats.commit(null, 1, [
          { op: 'set', key: 's', value: 'v' },
          { op: 'hset', key: 'h', field: 'f', value: 'v' },
        ]);
        await expect(stats.get('h')).rejects.toBeInstanceOf(ReadModelValueError);
        await expect(stats.mget(['s', 'h'])).rejects.toBeInstanceOf(ReadModelValueError);
        await expect(stats.hgetall('s')).rejects.toBeInstanceOf(ReadModelValueError);
        await expect(stats.smembers('h')).rejects.toBeInstanceOf(ReadModelValueError);
      });
    });

    describe('checkpoint guard', () => {
      it('starts with no checkpoint and moves it only from the checkpoint stored', async () => {
        expect(await stats.checkpoint()).toBeNull();
        expect(await stats.commit(null, 5, [{ op: 'set', key: 'k', value: 'at 5' }])).toBe(true);
        expect(await stats.checkpoint()).toBe(5);
        expect(await stats.commit(5, 9, [{ op: 'set', key: 'k', value: 'at 9' }])).toBe(true);
        expect(await stats.checkpoint()).toBe(9);
        expect(await stats.get('k')).toBe('at 9');
      });

      it('rejects a stale or future from and applies nothing', async () => {
        await stats.commit(null, 5, [{ op: 'hincrby', key: 'totals', field: 'scans', by: 1 }]);
        for (const from of [4, 6, null]) {
          const applied = await stats.commit(from, 7, [
            { op: 'hincrby', key: 'totals', field: 'scans', by: 1 },
            { op: 'set', key: 'late', value: 'x' },
          ]);
          expect(applied).toBe(false);
        }
        expect(await stats.checkpoint()).toBe(5);
        expect(await stats.hgetall('totals')).toEqual({ scans: '1' });
        expect(await stats.get('late')).toBeNull();
      });

      it('treats checkpoint 0 as a checkpoint, not as none', async () => {
        expect(await stats.commit(null, 0, [])).toBe(true);
        expect(await stats.checkpoint()).toBe(0);
        expect(await stats.commit(null, 1, [])).toBe(false);
        expect(await stats.commit(0, 1, [])).toBe(true);
      });

      it('moves the checkpoint with no ops', async () => {
        expect(await stats.commit(null, 3, [])).toBe(true);
        expect(await stats.checkpoint()).toBe(3);
      });

      it('lets exactly one of two racing commits from the same checkpoint through', async () => {
        await stats.commit(null, 1, []);
        const bump: ReadModelOp[] = [{ op: 'hincrby', key: 'totals', field: 'scans', by: 1 }];
        const results = await Promise.all([stats.commit(1, 2, bump), stats.commit(1, 2, bump)]);
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await stats.hgetall('totals')).toEqual({ scans: '1' });
      });
    });

    describe('atomicity', () => {
      const failing: Record<string, ReadModelOp> = {
        'an op on a key of another kind': { op: 'sadd', key: 'title', member: 'x' },
        'hset on a string': { op: 'hset', key: 'title', field: 'f', value: 'x' },
        'hincrby on a field that is not an integer': { op: 'hincrby', key: 'totals', field: 'label', by: 1 },
        'hincrby with a fractional step': { op: 'hincrby', key: 'totals', field: 'scans', by: 1.5 },
        'hincrby leaving the safe-integer range': {
          op: 'hincrby',
          key: 'totals',
          field: 'scans',
          by: Number.MAX_SAFE_INTEGER,
        },
      };

      for (const [what, op] of Object.entries(failing)) {
        it(`a commit with ${what} throws ReadModelValueError and applies none of its ops`, async () => {
          await stats.commit(null, 1, [
            { op: 'set', key: 'title', value: 'kept' },
            { op: 'hset', key: 'totals', field: 'label', value: 'twelve' },
            { op: 'hincrby', key: 'totals', field: 'scans', by: 12 },
          ]);
          const commit = stats.commit(1, 2, [
            { op: 'set', key: 'before', value: 'x' },
            { op: 'hincrby', key: 'totals', field: 'scans', by: 1 },
            { op: 'del', key: 'title' },
            { op: 'set', key: 'title', value: 'replaced' },
            op,
            { op: 'set', key: 'after', value: 'x' },
          ]);
          await expect(commit).rejects.toBeInstanceOf(ReadModelValueError);
          expect(await stats.checkpoint()).toBe(1);
          expect(await stats.mget(['title', 'before', 'after'])).toEqual(['kept', null, null]);
          expect(await stats.hgetall('totals')).toEqual({ label: 'twelve', scans: '12' });
        });
      }
    });

    describe('versions', () => {
      it('starts at version 1; createVersion hands out fresh, empty, inactive versions', async () => {
        await stats.commit(null, 4, [{ op: 'set', key: 'k', value: 'live' }]);
        expect(await store.activeVersion('stats')).toBe(1);
        const a = await store.createVersion('stats');
        const b = await store.createVersion('stats');
        expect(a).toBeGreaterThan(1);
        expect(b).toBeGreaterThan(a);
        expect(await store.activeVersion('stats')).toBe(1);
        const fresh = store.projection('stats', b);
        expect(await fresh.checkpoint()).toBeNull();
        expect(await fresh.get('k')).toBeNull();
      });

      it('hides pinned writes from readers until activate, then shows them all at once', async () => {
        await stats.commit(null, 10, [
          { op: 'set', key: 'name', value: 'old' },
          { op: 'sadd', key: 'ids', member: 'old-only' },
        ]);
        const next = await store.createVersion('stats');
        const rebuild = store.projection('stats', next);
        expect(await rebuild.commit(null, 6, [{ op: 'set', key: 'name', value: 'rebuilt' }])).toBe(true);
        expect(await rebuild.commit(6, 12, [{ op: 'hincrby', key: 'totals', field: 'scans', by: 3 }])).toBe(true);

        expect(await stats.get('name')).toBe('old');
        expect(await stats.hgetall('totals')).toEqual({});
        expect(await stats.checkpoint()).toBe(10);

        await store.activate('stats', next);
        expect(await store.activeVersion('stats')).toBe(next);
        // `stats` was obtained before the switch: it follows the pointer on every call.
        expect(await stats.get('name')).toBe('rebuilt');
        expect(await stats.hgetall('totals')).toEqual({ scans: '3' });
        expect(await stats.smembers('ids')).toEqual([]);
        expect(await stats.checkpoint()).toBe(12);
        expect(await store.projection('stats', 1).get('name')).toBe('old');
      });

      it('after a switch, a live commit guarded by the old checkpoint returns false and writes nowhere', async () => {
        await stats.commit(null, 10, [{ op: 'hincrby', key: 'totals', field: 'scans', by: 10 }]);
        const next = await store.createVersion('stats');
        await store
          .projection('stats', next)
          .commit(null, 12, [{ op: 'hincrby', key: 'totals', field: 'scans', by: 12 }]);
        await store.activate('stats', next);

        const late = await stats.commit(10, 11, [{ op: 'hincrby', key: 'totals', field: 'scans', by: 1 }]);
        expect(late).toBe(false);
        expect(await stats.hgetall('totals')).toEqual({ scans: '12' });
        expect(await store.projection('stats', 1).hgetall('totals')).toEqual({ scans: '10' });
        // The live runner reloads the new version's checkpoint and carries on from there.
        expect(await stats.commit(await stats.checkpoint(), 13, [])).toBe(true);
      });

      it('can switch back to an older version', async () => {
        await stats.commit(null, 1, [{ op: 'set', key: 'k', value: 'one' }]);
        const next = await store.createVersion('stats');
        await store.activate('stats', next);
        expect(await stats.get('k')).toBeNull();
        await store.activate('stats', 1);
        expect(await stats.get('k')).toBe('one');
      });

      it('refuses to activate or write a version that was never created', async () => {
        const created = await store.createVersion('stats');
        for (const version of [created + 1, 0, 1.5]) {
          await expect(store.activate('stats', version)).rejects.toBeInstanceOf(ReadModelVersionError);
          await expect(store.projection('stats', version).commit(null, 1, [])).rejects.toBeInstanceOf(
            ReadModelVersionError,
          );
        }
        expect(await store.activeVersion('stats')).toBe(1);
      });

      it('dropVersion deletes the version’s data and checkpoint and leaves other versions alone', async () => {
        await stats.commit(null, 1, [
          { op: 'set', key: 'k', value: 'v1' },
          { op: 'hset', key: 'h', field: 'f', value: 'x' },
          { op: 'sadd', key: 's', member: 'x' },
        ]);
        // Go on until a version number starts with the dropped one's digits (1 and 1x): the
        // drop must not reach across.
        const next = await store.createVersion('stats');
        let similar = next;
        while (!String(similar).startsWith('1')) similar = await store.createVersion('stats');
        for (const version of [next, similar]) {
          await store
            .projection('stats', version)
            .commit(null, version, [{ op: 'set', key: 'k', value: `v${version}` }]);
        }
        await store.activate('stats', next);

        await store.dropVersion('stats', 1);

        const gone = store.projection('stats', 1);
        expect(await gone.checkpoint()).toBeNull();
        expect(await gone.get('k')).toBeNull();
        expect(await gone.hgetall('h')).toEqual({});
        expect(await gone.smembers('s')).toEqual([]);
        expect(await store.projection('stats', similar).get('k')).toBe(`v${similar}`);
        expect(await stats.get('k')).toBe(`v${next}`);
      });

      it('dropVersion deletes versions with many keys', async () => {
        const next = await store.createVersion('stats');
        const keys = Array.from({ length: 2_500 }, (_, i) => `k${i}`);
        await store.projection('stats', next).commit(
          null,
          1,
          keys.map((key) => ({ op: 'set', key, value: key })),
        );
        await store.dropVersion('stats', next);
        const values = await store.projection('stats', next).mget(keys);
        expect(values.filter((value) => value !== null)).toEqual([]);
      });

      it('dropVersion refuses to drop the active version', async () => {
        await stats.commit(null, 1, [{ op: 'set', key: 'k', value: 'v' }]);
        await expect(store.dropVersion('stats', 1)).rejects.toBeInstanceOf(ReadModelVersionError);
        const next = await store.createVersion('stats');
        await store.activate('stats', next);
        await expect(store.dropVersion('stats', next)).rejects.toBeInstanceOf(ReadModelVersionError);
        expect(await store.projection('stats', 1).get('k')).toBe('v');
      });

      it('never hands out a dropped version’s number again', async () => {
        const first = await store.createVersion('stats');
        await store.projection('stats', first).commit(null, 1, [{ op: 'set', key: 'k', value: 'old' }]);
        await store.dropVersion('stats', first);
        const second = await store.createVersion('stats');
        expect(second).toBeGreaterThan(first);
        expect(await store.projection('stats', second).get('k')).toBeNull();
      });
    });

    describe('isolation between projections', () => {
      it('keeps data, checkpoints and versions of each projection apart', async () => {
        const users = store.projection('users');
        await stats.commit(null, 3, [
          { op: 'set', key: 'k', value: 'stats' },
          { op: 'sadd', key: 's', member: 'stats' },
        ]);
        expect(await users.checkpoint()).toBeNull();
        expect(await users.get('k')).toBeNull();
        expect(await users.commit(null, 8, [{ op: 'set', key: 'k', value: 'users' }])).toBe(true);
        expect(await stats.get('k')).toBe('stats');
        expect(await stats.checkpoint()).toBe(3);

        const next = await store.createVersion('stats');
        await store.activate('stats', next);
        expect(await store.activeVersion('users')).toBe(1);
        expect(await users.get('k')).toBe('users');
      });

      it('dropping one projection’s version leaves a projection whose name it glob-matches alone', async () => {
        const star = store.projection('p*');
        await star.commit(null, 1, [{ op: 'set', key: 'k', value: 'star' }]);
        await store.projection('px').commit(null, 1, [{ op: 'set', key: 'k', value: 'plain' }]);
        await store.activate('p*', await store.createVersion('p*'));
        await store.dropVersion('p*', 1);
        expect(await store.projection('p*', 1).get('k')).toBeNull();
        expect(await store.projection('px').get('k')).toBe('plain');
      });
    });
  });
}
