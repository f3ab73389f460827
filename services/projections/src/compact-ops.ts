import type { ReadModelOp } from '@qrshirt/core';

/**
 * Folds the counter increments of a batch into one per key and field: a thousand scans of a
 * dozen fundraisers commit two dozen increments, not two thousand. An increment is only merged
 * into an earlier one while no other op has touched its key in between, so the result applies
 * exactly as the original sequence would.
 */
export function compactOps(ops: readonly ReadModelOp[]): ReadModelOp[] {
  const compacted: ReadModelOp[] = [];
  /** key -> field -> the increment still open for merging, a copy of the first one that this call owns */
  const open = new Map<string, Map<string, { by: number }>>();
  for (const op of ops) {
    if (op.op !== 'hincrby') {
      open.delete(op.key);
      if (op.op === 'rename') open.delete(op.to);
      compacted.push(op);
      continue;
    }
    let fields = open.get(op.key);
    if (!fields) {
      fields = new Map();
      open.set(op.key, fields);
    }
    const earlier = fields.get(op.field);
    if (earlier) {
      earlier.by += op.by;
    } else {
      const merged = { ...op };
      fields.set(op.field, merged);
      compacted.push(merged);
    }
  }
  return compacted;
}
