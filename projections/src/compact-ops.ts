import type { ReadModelOp } from './store/read-model-store';

/**
 * Folds the counter increments of a batch into one per key and field: a thousand scans of a
 * dozen fundraisers commit two dozen increments, not two thousand. An increment is only merged
 * into an earlier one while no other op has touched its key in between, so the result applies
 * exactly as the original sequence would.
 */
export function compactOps(ops: readonly ReadModelOp[]): ReadModelOp[] {
  const compacted: ReadModelOp[] = [];
  /** key -> field -> index in `compacted` of the increment still open for merging */
  const open = new Map<string, Map<string, number>>();
  for (const op of ops) {
    if (op.op !== 'hincrby') {
      open.delete(op.key);
      if (op.op === 'rename') open.delete(op.to);
      compacted.push(op);
      continue;
    }
    const fields = open.get(op.key) ?? new Map<string, number>();
    open.set(op.key, fields);
    const index = fields.get(op.field);
    const earlier = index === undefined ? undefined : compacted[index];
    if (earlier?.op === 'hincrby') {
      compacted[index!] = { ...earlier, by: earlier.by + op.by };
    } else {
      fields.set(op.field, compacted.length);
      compacted.push(op);
    }
  }
  return compacted;
}
