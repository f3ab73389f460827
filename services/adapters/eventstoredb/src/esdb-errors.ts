/** gRPC status codes the client passes through without a type of its own. */
const INVALID_ARGUMENT = 3;
const RESOURCE_EXHAUSTED = 8;

interface ErrorFields {
  type?: unknown;
  code?: unknown;
  message?: unknown;
  maxAppendSize?: unknown;
}

function fields(error: unknown): ErrorFields {
  return typeof error === 'object' && error !== null ? error : {};
}

export function errorType(error: unknown): string {
  const { type } = fields(error);
  return typeof type === 'string' ? type : '';
}

/**
 * The server's refusal of an append that is too large, with its limit when it says it. Client 6
 * knows `MaximumAppendSizeExceeded`, but reports the per-event limit of newer servers
 * (`MaximumAppendEventSizeExceeded`) and a gRPC message over the receive limit as "unknown".
 */
export function appendSizeRefusal(error: unknown): { maxAppendSize: number | undefined } | undefined {
  const { type, code, message, maxAppendSize } = fields(error);
  const limit = typeof maxAppendSize === 'number' && maxAppendSize > 0 ? maxAppendSize : undefined;
  if (type === 'maximum-append-size-exceeded') return { maxAppendSize: limit };
  if (type !== 'unknown') return undefined;
  const text = typeof message === 'string' ? message : '';
  if (code === RESOURCE_EXHAUSTED || /MaximumAppend(?:Event)?SizeExceeded|Maximum Append Size/i.test(text)) {
    return { maxAppendSize: limit };
  }
  return undefined;
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
      return appendSizeRefusal(error) === undefined && fields(error).code !== INVALID_ARGUMENT;
    default:
      return false;
  }
}

/**
 * Errors a new subscription would only meet again. The server's "Trying to read from an invalid
 * position" comes as gRPC INVALID_ARGUMENT without the header client 6 maps, so as "unknown".
 */
export function isFatalSubscriptionError(error: unknown): boolean {
  const type = errorType(error);
  if (type === 'access-denied' || type === 'invalid-argument' || type === 'unsupported') return true;
  return type === 'unknown' && fields(error).code === INVALID_ARGUMENT;
}
