/** An answer the server did not give in time; its outcome, for an append, is unknown. */
export class EsdbDeadlineError extends Error {
  readonly type = 'deadline-exceeded';
}

/** A call the adapter abandoned because its store was closed while it ran. */
export class EsdbClosedError extends Error {
  readonly type = 'closed';
}

/** A call not sent: what it was part of had used up its deadline before it. */
export class EsdbOutOfTimeError extends Error {
  readonly type = 'out-of-time';
}

/** The server refused the connection string's user a call; the client's own error names nothing. */
class EsdbAccessDeniedError extends Error {
  readonly type = 'access-denied';
}

/** `error` saying what was refused, when it is the server's access denied; any other as it is. */
export function namingAccessDenied(what: string, error: unknown): unknown {
  if (errorType(error) !== 'access-denied' || error instanceof EsdbAccessDeniedError) return error;
  return new EsdbAccessDeniedError(
    `EventStoreDB denied the connection string’s user ${what} (access denied): grant that user the right to it`,
    { cause: error },
  );
}

/** gRPC status codes the client passes through without a type of its own. */
const INVALID_ARGUMENT = 3;
const RESOURCE_EXHAUSTED = 8;

interface ErrorFields {
  type?: unknown;
  code?: unknown;
  message?: unknown;
}

function fields(error: unknown): ErrorFields {
  return typeof error === 'object' && error !== null ? error : {};
}

export function errorType(error: unknown): string {
  const { type } = fields(error);
  return typeof type === 'string' ? type : '';
}

/**
 * The server's refusal of an append that is too large: its append or per-event limit is lower
 * than configured here. The client types both; a gRPC message over the receive limit, or a
 * server whose refusal it does not know, comes as "unknown".
 */
export function appendSizeRefusal(error: unknown): boolean {
  const { type, code, message } = fields(error);
  if (type === 'maximum-append-size-exceeded' || type === 'append-record-size-exceeded') return true;
  if (type !== 'unknown') return false;
  const text = typeof message === 'string' ? message : '';
  return code === RESOURCE_EXHAUSTED || /MaximumAppend(?:Event)?SizeExceeded|Maximum Append Size/i.test(text);
}

/**
 * The whole BatchAppend stream failed as too large: some message on it was over the server's
 * gRPC limit, this append's or another's. The client fails every append in flight on it so.
 */
export function sharedStreamExhausted(error: unknown): boolean {
  const { type, code } = fields(error);
  return type === 'unknown' && code === RESOURCE_EXHAUSTED;
}

/**
 * The server's answer to one append on BatchAppend that the client does not know (a bad
 * request, say): that append was refused, and sending it again would be refused again.
 */
export function unrecognisedRefusal(error: unknown): boolean {
  const { type, code, message } = fields(error);
  return (
    type === 'unknown' && code === undefined && typeof message === 'string' && message.startsWith('Could not recognize')
  );
}

/**
 * Errors after which the append may or may not have been committed: the connection dropped, the
 * deadline passed, the leader changed, or the batch stream failed underneath the call.
 */
export function isUnknownOutcome(error: unknown): boolean {
  switch (errorType(error)) {
    case 'unavailable':
    case 'deadline-exceeded':
    case 'cancelled':
    case 'not-leader':
    case 'timeout':
      return true;
    case 'unknown':
      return !appendSizeRefusal(error) && !unrecognisedRefusal(error) && fields(error).code !== INVALID_ARGUMENT;
    default:
      return false;
  }
}

/**
 * Errors a new subscription would only meet again. The server's "Trying to read from an invalid
 * position" comes as gRPC INVALID_ARGUMENT without the header the client maps to a type.
 */
export function isFatalSubscriptionError(error: unknown): boolean {
  const type = errorType(error);
  if (type === 'access-denied' || type === 'invalid-argument' || type === 'unsupported') return true;
  return fields(error).code === INVALID_ARGUMENT;
}
