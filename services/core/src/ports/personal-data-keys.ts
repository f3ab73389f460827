import type { EventData } from '@qrshirt/contracts';

/**
 * Each person's key, kept outside the event log (in the credentials store: SQLite file or Redis),
 * so that destroying it erases their data everywhere the sealed values went: the log, its copies,
 * the read models. Every credentials-store adapter passes the contract suite for these.
 */
export interface PersonalDataKeys {
  /**
   * The subject's key, the same for every caller: the one stored, or `candidate` when none was.
   * Null once the subject was erased: an erased person's data is never sealed again.
   */
  personalDataKey(subject: string, candidate: Buffer): Promise<Buffer | null>;
  /** The keys of those subjects that have one (erased and unknown subjects are absent). */
  personalDataKeys(subjects: readonly string[]): Promise<Map<string, Buffer>>;
  /**
   * Destroys the subject's key for good, leaving no copy in the store's files, and remembers that
   * the subject is erased (a subject never keyed, whose data predates sealing, too). True when
   * this call erased it, false when it was erased already. `act` is for the erasure journal; the
   * stores ignore it.
   */
  erasePersonalDataKey(subject: string, act?: ErasureAct): Promise<boolean>;
}

/**
 * The act an erasure is part of, as the log records it (ids, no personal data): the erasure
 * journal keeps it, so that a restore of a backup taken before it can record it again.
 */
export interface ErasureAct {
  type: 'UserAccountClosed';
  data: EventData<'UserAccountClosed'>;
}
