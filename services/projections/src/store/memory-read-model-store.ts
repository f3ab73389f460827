import { ReadModelValueError, ReadModelVersionError } from './read-model-store-errors';
import type { ProjectionStore, ReadModelOp, ReadModelStore } from '@qrshirt/core';

type Value =
  | { kind: 'string'; value: string }
  | { kind: 'hash'; fields: Map<string, string> }
  | { kind: 'set'; members: Set<string> };

interface Version {
  checkpoint: number | null;
  data: Map<string, Value>;
}

interface Projection {
  active: number;
  lastCreated: number;
  /** Versions appear on their first commit; a missing one reads as empty. */
  versions: Map<number, Version>;
}

/** Counters stay within what a JS reader can parse back exactly (the Redis adapter agrees). */
const INTEGER = /^(0|-?[1-9]\d*)$/;

/**
 * The in-process read-model store (embedded mode, tests). Every method runs to completion
 * without awaiting, so each commit and each read is atomic with respect to the others.
 */
export function createMemoryReadModelStore(): ReadModelStore {
  const projections = new Map<string, Projection>();

  function projectionState(name: string): Projection {
    let projection = projections.get(name);
    if (!projection) {
      projection = { active: 1, lastCreated: 1, versions: new Map() };
      projections.set(name, projection);
    }
    return projection;
  }

  function assertCreated(name: string, projection: Projection, version: number): void {
    if (!Number.isSafeInteger(version) || version < 1 || version > projection.lastCreated) {
      throw new ReadModelVersionError(`version ${version} of projection ${name} was never created`);
    }
  }

  function readData(name: string, pinned: number | undefined): Map<string, Value> | undefined {
    const projection = projections.get(name);
    return projection?.versions.get(pinned ?? projection.active)?.data;
  }

  function projection(name: string, pinned?: number): ProjectionStore {
    function read<K extends Value['kind']>(key: string, kind: K): Extract<Value, { kind: K }> | undefined {
      const value = readData(name, pinned)?.get(key);
      if (value && value.kind !== kind) {
        throw new ReadModelValueError(`key ${key} holds a ${value.kind}, not a ${kind}`);
      }
      return value as Extract<Value, { kind: K }> | undefined;
    }
    const get = (key: string) => read(key, 'string')?.value ?? null;
    const hgetall = (key: string) => Object.fromEntries(read(key, 'hash')?.fields ?? []);

    return {
      async commit(from, to, ops) {
        const state = projectionState(name);
        if (pinned !== undefined) assertCreated(name, state, pinned);
        const number = pinned ?? state.active;
        const version = state.versions.get(number) ?? { checkpoint: null, data: new Map() };
        if (version.checkpoint !== from) return false;
        const changes = stage(version.data, ops);
        for (const [key, value] of changes) {
          if (value) version.data.set(key, value);
          else version.data.delete(key);
        }
        version.checkpoint = to;
        state.versions.set(number, version);
        return true;
      },
      async checkpoint() {
        const state = projections.get(name);
        return state?.versions.get(pinned ?? state.active)?.checkpoint ?? null;
      },
      async get(key) {
        return get(key);
      },
      async mget(keys) {
        return keys.map(get);
      },
      async hgetall(key) {
        return hgetall(key);
      },
      async hgetallMany(keys) {
        return keys.map(hgetall);
      },
      async smembers(key) {
        return [...(read(key, 'set')?.members ?? [])];
      },
    };
  }

  return {
    projection,
    async activeVersion(name) {
      return projections.get(name)?.active ?? 1;
    },
    async createVersion(name) {
      const state = projectionState(name);
      state.lastCreated += 1;
      return state.lastCreated;
    },
    async activate(name, version) {
      const state = projectionState(name);
      assertCreated(name, state, version);
      state.active = version;
    },
    async dropVersion(name, version) {
      const state = projections.get(name);
      if ((state?.active ?? 1) === version) {
        throw new ReadModelVersionError(`version ${version} of projection ${name} is active`);
      }
      state?.versions.delete(version);
    },
    async ping() {},
    async close() {},
  };
}

/**
 * Applies `ops` to copies of the values they touch and returns the new values (undefined:
 * deleted), so an op that throws halfway leaves the stored data untouched.
 */
function stage(data: ReadonlyMap<string, Value>, ops: readonly ReadModelOp[]): Map<string, Value | undefined> {
  const staged = new Map<string, Value | undefined>();

  function writable<K extends 'hash' | 'set'>(op: ReadModelOp, kind: K): Extract<Value, { kind: K }> {
    const current = staged.has(op.key) ? staged.get(op.key) : data.get(op.key);
    if (current && current.kind !== kind) {
      throw new ReadModelValueError(`${op.op} on key ${op.key}, which holds a ${current.kind}`);
    }
    if (current && staged.has(op.key)) return current as Extract<Value, { kind: K }>;
    const copy: Value =
      kind === 'hash'
        ? { kind: 'hash', fields: new Map(current?.kind === 'hash' ? current.fields : []) }
        : { kind: 'set', members: new Set(current?.kind === 'set' ? current.members : []) };
    staged.set(op.key, copy);
    return copy as Extract<Value, { kind: K }>;
  }

  for (const op of ops) {
    switch (op.op) {
      case 'set':
        staged.set(op.key, { kind: 'string', value: op.value });
        break;
      case 'del':
        staged.set(op.key, undefined);
        break;
      case 'hset':
        writable(op, 'hash').fields.set(op.field, op.value);
        break;
      case 'hincrby': {
        if (!Number.isSafeInteger(op.by)) {
          throw new ReadModelValueError(`hincrby on key ${op.key}: by must be a safe integer, got ${op.by}`);
        }
        const fields = writable(op, 'hash').fields;
        const current = fields.get(op.field) ?? '0';
        const next = Number(current) + op.by;
        if (!INTEGER.test(current) || !Number.isSafeInteger(Number(current)) || !Number.isSafeInteger(next)) {
          throw new ReadModelValueError(
            `hincrby on ${op.key} ${op.field}: ${current} + ${op.by} is not a safe integer`,
          );
        }
        fields.set(op.field, String(next));
        break;
      }
      case 'sadd':
        writable(op, 'set').members.add(op.member);
        break;
      case 'rename': {
        const current = staged.has(op.key) ? staged.get(op.key) : data.get(op.key);
        // A stored value is copied: later ops of the batch change staged values in place.
        staged.set(op.to, current && !staged.has(op.key) ? copyOf(current) : current);
        if (op.to !== op.key) staged.set(op.key, undefined);
        break;
      }
      default:
        throw new ReadModelValueError(`unknown op ${String((op as { op: unknown }).op)}`);
    }
  }
  return staged;
}

function copyOf(value: Value): Value {
  switch (value.kind) {
    case 'string':
      return { ...value };
    case 'hash':
      return { kind: 'hash', fields: new Map(value.fields) };
    case 'set':
      return { kind: 'set', members: new Set(value.members) };
  }
}
