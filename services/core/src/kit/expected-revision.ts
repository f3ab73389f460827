import { ConcurrencyError, type ExpectedRevision } from './event-store';

/** A programming error, not a conflict: reported as a plain Error before anything is sent. */
export function assertValidExpectedRevision(expected: ExpectedRevision): void {
  const valid =
    expected === 'any' ||
    expected === 'no_stream' ||
    expected === 'stream_exists' ||
    (typeof expected === 'number' && Number.isSafeInteger(expected) && expected >= 0);
  if (!valid) {
    throw new Error(
      `expectedRevision must be 'any', 'no_stream', 'stream_exists' or a revision >= 0, got ${String(expected)}`,
    );
  }
}

/** `current` is the revision of the stream's last event, undefined when the stream does not exist. */
export function assertExpectedRevision(
  streamName: string,
  expected: ExpectedRevision,
  current: number | undefined,
): void {
  const matches =
    expected === 'any' ||
    (expected === 'no_stream' && current === undefined) ||
    (expected === 'stream_exists' && current !== undefined) ||
    expected === current;
  if (!matches) throw new ConcurrencyError(streamName, expected, current ?? 'no_stream');
}
