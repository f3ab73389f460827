/**
 * The read-model store port (adapters: in-process and Redis). Projections never read while
 * writing: a projector turns events into ops, and the runner commits the ops together with the
 * projection's checkpoint in one atomic step, guarded by the checkpoint it started from.
 *
 * Blue/green rebuilds: every projection's keys live under a version; one pointer per projection
 * names the active version. `projection(name)` follows the pointer on every call, so a switch
 * is atomic for readers, and a live runner whose guard fails after a switch simply reloads the
 * new version's checkpoint and carries on from there.
 */
export type ReadModelOp =
  | { op: 'set'; key: string; value: string }
  | { op: 'del'; key: string }
  | { op: 'hset'; key: string; field: string; value: string }
  | { op: 'hincrby'; key: string; field: string; by: number }
  | { op: 'sadd'; key: string; member: string }
  /**
   * Moves the value of `key` (of any kind) to `to`, replacing what `to` held, and deletes `key`;
   * when `key` holds nothing, `to` is deleted too. It closes a running tally under a name of its
   * own without the projector reading it (a fundraiser's figures per charity).
   */
  | { op: 'rename'; key: string; to: string };

export interface ProjectionStore {
  /**
   * Applies `ops` and moves the checkpoint from `from` (null: none yet) to `to`, atomically.
   * Returns false and applies nothing when the stored checkpoint is not `from`.
   */
  commit(from: number | null, to: number, ops: readonly ReadModelOp[]): Promise<boolean>;
  checkpoint(): Promise<number | null>;
  get(key: string): Promise<string | null>;
  mget(keys: readonly string[]): Promise<(string | null)[]>;
  /** An unknown key reads as {}. */
  hgetall(key: string): Promise<Record<string, string>>;
  hgetallMany(keys: readonly string[]): Promise<Record<string, string>[]>;
  /** An unknown key reads as []. Order is not defined. */
  smembers(key: string): Promise<string[]>;
}

export interface ReadModelStore {
  /** Without a version: follows the active version. With one: pinned to it (rebuilds write there). */
  projection(name: string, version?: number): ProjectionStore;
  /** The version readers see; 1 before any switch. */
  activeVersion(name: string): Promise<number>;
  /** Reserves a fresh, empty, inactive version number. */
  createVersion(name: string): Promise<number>;
  /** Points readers (and live runners) at `version`, atomically. */
  activate(name: string, version: number): Promise<void>;
  /** Deletes every key of an inactive version. */
  dropVersion(name: string, version: number): Promise<void>;
  /** Resolves when the store answers (GET /readyz); in process it always does. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
