import { authErrorMessage, authErrorMessages } from '@qrshirt/contracts';
import { isApiError } from '@/lib/http';

/**
 * Spec section 8: an auth failure's code picks its message (unknown codes get the generic one).
 * Without a code, the server's own readable message stands (e.g. Google not configured), and a
 * request that never reached the server is the network error.
 */
export function authFailureMessage(error: unknown): string {
  if (isApiError(error)) return error.code ? authErrorMessage(error.code) : error.message;
  if (error instanceof TypeError) return authErrorMessages['network-request-failed'];
  return authErrorMessage(undefined);
}
