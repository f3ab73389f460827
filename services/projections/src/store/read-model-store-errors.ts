/**
 * Thrown by both adapters, so callers can tell a projector bug from a lost race (a commit whose
 * guard fails returns false instead). When a commit throws, none of its ops were applied.
 */

/** The value under a key does not fit the op or read (a hash where a string was expected,
 *  a non-integer counter, a counter leaving the safe-integer range). */
export class ReadModelValueError extends Error {
  override name = 'ReadModelValueError';
}

/** A version that was never created was activated or written, or the active one was dropped. */
export class ReadModelVersionError extends Error {
  override name = 'ReadModelVersionError';
}
